import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import {
  AppBridge,
  buildAllowAttribute,
  PostMessageTransport,
  type McpUiResourceMeta,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ExplorerSession } from './explorer-session.js';

const HOST = { name: 'nestjs-mcp-explorer', version: '1.0.0' };
/** What the sandbox page sends when it listens, and what carries the view's HTML to it. */
const SANDBOX_READY = 'ui/notifications/sandbox-proxy-ready';
const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';

/** The sandbox page's first message, once it listens for the view's HTML. */
function sandboxReady(frame: HTMLIFrameElement, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: MessageEvent) => {
      if (
        event.source !== frame.contentWindow ||
        (event.data as { method?: string })?.method !== SANDBOX_READY
      )
        return;
      window.removeEventListener('message', listener);
      resolve();
    };
    window.addEventListener('message', listener);
    signal.addEventListener('abort', () => window.removeEventListener('message', listener));
  });
}

/**
 * A tool's MCP Apps view: read as the caller, run in a sandboxed iframe (no same origin, the
 * view's own CSP from the sandbox route), connected by ext-apps' AppBridge, which gives it the
 * call's input and result and forwards its own calls to the server as this caller.
 */
export function AppView(props: {
  session: ExplorerSession;
  tool: string;
  resourceUri: string;
  arguments: Record<string, unknown>;
  result: Record<string, any>;
}) {
  const { session } = props;
  const [view, setView] = useState<{ html: string; ui?: McpUiResourceMeta }>();
  const [problem, setProblem] = useState<string>();
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    setView(undefined);
    setProblem(undefined);
    session.connection.client
      .readResource({ uri: props.resourceUri })
      .then(({ contents }) => {
        const content = contents.find((item) => 'text' in item) as
          { text: string; _meta?: { ui?: McpUiResourceMeta } } | undefined;
        if (!content) throw new Error(`${props.resourceUri} has no HTML text`);
        setView({ html: content.text, ui: content._meta?.ui });
      })
      .catch((error: Error) =>
        setProblem(`The view ${props.resourceUri} could not be read: ${error.message}`),
      );
  }, [props.resourceUri, props.result]);

  // Before the frame can load: its first message must find the listener.
  useLayoutEffect(() => {
    const iframe = frame.current;
    if (!view || !iframe) return;
    const controller = new AbortController();
    let bridge: AppBridge | undefined;
    void (async () => {
      await sandboxReady(iframe, controller.signal);
      if (controller.signal.aborted) return;
      bridge = new AppBridge(
        session.connection.client as never,
        HOST,
        { serverTools: {}, logging: {} },
        {
          hostContext: {
            theme: 'light',
            locale: session.caller.locale ?? navigator.language,
            displayMode: 'inline',
          },
        },
      );
      bridge.onsizechange = ({ height }) => {
        if (height) iframe.style.height = `${Math.min(height, 2000)}px`;
      };
      const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()));
      await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
      // An opaque-origin frame: the HTML goes to whatever it is, which is the sandbox page.
      iframe.contentWindow!.postMessage(
        { jsonrpc: '2.0', method: RESOURCE_READY, params: { html: view.html } },
        '*',
      );
      await initialized;
      await bridge.sendToolInput({ arguments: props.arguments });
      await bridge.sendToolResult(props.result as never);
    })().catch((error: Error) => setProblem(`The view failed: ${error.message}`));
    return () => {
      controller.abort();
      void bridge?.close();
    };
  }, [view]);

  const csp = encodeURIComponent(JSON.stringify(view?.ui?.csp ?? {}));
  return (
    <section aria-label="App view" class="app-view">
      <h3>App view</h3>
      {problem && (
        <p role="alert" class="field-error">
          {problem}
        </p>
      )}
      {view && (
        <iframe
          key={view.html}
          ref={frame}
          title={`App view: ${props.tool}`}
          sandbox="allow-scripts"
          allow={buildAllowAttribute(view.ui?.permissions) || undefined}
          src={`${session.config.sandbox}?csp=${csp}`}
        />
      )}
    </section>
  );
}
