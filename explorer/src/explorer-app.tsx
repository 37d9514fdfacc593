import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { CallerBar } from './caller-bar.js';
import { loadCallers, saveCallers, type SavedCallers } from './caller-store.js';
import { ClampedText } from './clamped-text.js';
import { CopyAs } from './copy-as.js';
import { EntryTabs, type Tab } from './entry-tabs.js';
import type { ExplorerConfig } from './explorer-config.js';
import type { Action, ExplorerSession } from './explorer-session.js';
import { McpConnection, type Catalog, type Question } from './mcp-connection.js';
import { finishSignIn, signIn } from './oauth-sign-in.js';
import { PromptPanel } from './prompt-panel.js';
import { QuestionDialog } from './question-dialog.js';
import type { RecordedRequest } from './recording-fetch.js';
import { ResourcePanel } from './resource-panel.js';
import { TemplatePanel } from './template-panel.js';
import { ToolPanel } from './tool-panel.js';

interface Asked {
  question: Question;
  resolve(answer: ElicitResult): void;
}

/** The explorer: the caller, the server as this caller sees it, one entry at a time. */
export function ExplorerApp(props: { config: ExplorerConfig }) {
  const { config } = props;
  const [callers, setCallers] = useState<SavedCallers>(loadCallers);
  const [connection, setConnection] = useState<McpConnection>();
  const [catalog, setCatalog] = useState<Catalog>();
  const [problem, setProblem] = useState<string>();
  const [tab, setTab] = useState<Tab>('Tools');
  const [selected, setSelected] = useState<string>();
  const [asked, setAsked] = useState<Asked>();
  const [request, setRequest] = useState<RecordedRequest>();
  const [action, setAction] = useState<Action>();
  const [signingIn, setSigningIn] = useState(false);
  const logSink = useRef<((line: string) => void) | undefined>(undefined);
  /** The last request of each JSON-RPC method: the curl is that of the user's last action. */
  const sentBy = useRef<Record<string, RecordedRequest>>({});

  const update = (next: SavedCallers) => {
    saveCallers(next);
    setCallers(next);
  };

  // Back from the authorization server: the code becomes this tab's signed-in caller.
  useEffect(() => {
    finishSignIn(config.auth, config.endpoint)
      .then((token) => {
        if (!token) return;
        const saved = loadCallers();
        update({
          ...saved,
          tokens: [...saved.tokens.filter((old) => old !== token), token],
          current: token,
          signedIn: token,
        });
      })
      .catch((error: Error) => setProblem(`Sign-in failed: ${error.message}`));
  }, []);

  const caller = useMemo(
    () => ({ token: callers.current, locale: callers.locale }),
    [callers.current, callers.locale],
  );

  useEffect(() => {
    let closed = false;
    let opened: McpConnection | undefined;
    setCatalog(undefined);
    setProblem(undefined);
    setRequest(undefined);
    setAction(undefined);
    sentBy.current = {};
    McpConnection.open(config.endpoint, caller, {
      onQuestion: (question) => new Promise((resolve) => setAsked({ question, resolve })),
      onLog: (line) => logSink.current?.(line),
      onRequest: (recorded) => {
        if (recorded.rpcMethod) sentBy.current[recorded.rpcMethod] = recorded;
      },
    })
      .then(async (open) => {
        opened = open;
        if (closed) return void open.close();
        const loaded = await open.loadCatalog();
        if (closed) return;
        setConnection(open);
        setCatalog(loaded);
      })
      .catch((error: Error) => {
        if (closed) return;
        const unauthorized = /\b401\b|unauthorized/i.test(error.message);
        setProblem(
          unauthorized
            ? `The server refused this caller (401 Unauthorized): ${config.auth ? 'sign in, or ' : ''}paste a bearer token it accepts.`
            : `Could not connect to ${config.endpoint}: ${error.message}`,
        );
      });
    return () => {
      closed = true;
      void opened?.close();
    };
  }, [caller]);

  const session: ExplorerSession | undefined = connection &&
    catalog && {
      config,
      connection,
      caller,
      manifest: catalog.manifest,
      ask: (question) => new Promise((resolve) => setAsked({ question, resolve })),
      setLogSink: (sink) => (logSink.current = sink),
      recordAction: (next) => {
        setAction(next);
        const method =
          next.kind === 'tool'
            ? 'tools/call'
            : next.kind === 'prompt'
              ? 'prompts/get'
              : 'resources/read';
        setRequest(sentBy.current[method]);
      },
    };

  const startSignIn = async () => {
    if (!config.auth) return;
    setSigningIn(true);
    try {
      const token = await signIn(config.auth, config.endpoint);
      if (token)
        update({
          ...callers,
          tokens: [...callers.tokens.filter((old) => old !== token), token],
          current: token,
          signedIn: token,
        });
    } catch (error) {
      const message = (error as Error).message;
      setProblem(
        error instanceof TypeError
          ? `Sign-in failed: the authorization server could not be reached from this page (${message}); it must answer the explorer's origin (CORS) on its metadata, registration and token endpoints.`
          : `Sign-in failed: ${message}`,
      );
    } finally {
      setSigningIn(false);
    }
  };

  const current = config.servers.find((server) => server.endpoint === config.endpoint);
  return (
    <>
      <header class="top">
        <div class="brand">
          {config.servers.length > 1 && (
            <div class="field">
              <label for="server">Server</label>
              <select
                id="server"
                value={current?.explorer ?? ''}
                onChange={(event) => location.assign(event.currentTarget.value)}
              >
                {config.servers.map((server) => (
                  <option key={server.explorer} value={server.explorer}>
                    {server.title}
                  </option>
                ))}
              </select>
            </div>
          )}
          <h1>{config.title}</h1>
          <span class="muted mono">{config.endpoint}</span>
        </div>
        <CallerBar
          callers={callers}
          locales={config.locales}
          canSignIn={!!config.auth}
          signingIn={signingIn}
          onUse={(token) =>
            update({
              ...callers,
              tokens:
                token && !callers.tokens.includes(token)
                  ? [...callers.tokens, token]
                  : callers.tokens,
              current: token,
            })
          }
          onForget={(token) =>
            update({
              ...callers,
              tokens: callers.tokens.filter((old) => old !== token),
              current: undefined,
              signedIn: callers.signedIn === token ? undefined : callers.signedIn,
            })
          }
          onLocale={(locale) => update({ ...callers, locale })}
          onSignIn={() => void startSignIn()}
        />
      </header>
      <main>
        {problem && (
          <p role="alert" class="problem">
            {problem}
          </p>
        )}
        {!catalog && !problem && (
          <p class="muted" aria-live="polite">
            Connecting…
          </p>
        )}
        {catalog && session && (
          <>
            {catalog.instructions && (
              <section aria-label="Instructions" class="instructions">
                <h2>Instructions</h2>
                <ClampedText text={catalog.instructions} class="prose" />
              </section>
            )}
            {catalog.problems.map((line) => (
              <p key={line} class="problem">
                {line}
              </p>
            ))}
            <div class="layout">
              <EntryTabs
                catalog={catalog}
                tab={tab}
                selected={selected}
                onTab={(next) => {
                  setTab(next);
                  setSelected(undefined);
                }}
                onSelect={setSelected}
              />
              <div class="detail">
                <EntryPanel session={session} catalog={catalog} tab={tab} selected={selected} />
                <CopyAs
                  request={request}
                  action={action}
                  target={{
                    name: current?.name ?? config.title,
                    url: new URL(config.endpoint, location.href).href,
                    token: caller.token,
                    locale: caller.locale,
                    several: config.servers.length > 1,
                  }}
                />
              </div>
            </div>
          </>
        )}
      </main>
      {asked && (
        <QuestionDialog
          question={asked.question}
          onAnswer={(answer) => {
            setAsked(undefined);
            asked.resolve(answer);
          }}
        />
      )}
    </>
  );
}

/** The selected entry of the selected tab; what this caller cannot see is simply absent. */
function EntryPanel(props: {
  session: ExplorerSession;
  catalog: Catalog;
  tab: Tab;
  selected?: string;
}) {
  const { session, catalog, selected } = props;
  const tool =
    props.tab === 'Tools' ? catalog.tools.find((entry) => entry.name === selected) : undefined;
  if (tool) return <ToolPanel key={tool.name} session={session} tool={tool} />;
  const prompt =
    props.tab === 'Prompts' ? catalog.prompts.find((entry) => entry.name === selected) : undefined;
  if (prompt) return <PromptPanel key={prompt.name} session={session} prompt={prompt} />;
  const resource =
    props.tab === 'Resources'
      ? catalog.resources.find((entry) => entry.uri === selected)
      : undefined;
  if (resource) return <ResourcePanel key={resource.uri} session={session} resource={resource} />;
  const template =
    props.tab === 'Templates'
      ? catalog.templates.find((entry) => entry.uriTemplate === selected)
      : undefined;
  if (template)
    return <TemplatePanel key={template.uriTemplate} session={session} template={template} />;
  return <p class="muted placeholder">Choose an entry in the list to see it and call it.</p>;
}
