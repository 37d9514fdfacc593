import { useEffect, useRef, useState } from 'preact/hooks';
import type { Progress, Tool } from '@modelcontextprotocol/client';
import { fieldErrorsOf, outcomeOfError, type Outcome } from './call-outcome.js';
import { AppView } from './app-view.js';
import { CallProgress } from './call-progress.js';
import { EntryDetail } from './entry-detail.js';
import type { ExplorerSession } from './explorer-session.js';
import type { Question } from './mcp-connection.js';
import { checkValue, initialValue, type JsonSchema } from './json-schema.js';
import { ResultView } from './result-view.js';
import { SchemaForm } from './schema-form.js';
import { SchemaTable } from './schema-table.js';
import { TaskPanel, type TaskState } from './task-panel.js';

/** The `ui://` view a tool shows its result in (MCP Apps), if any. */
function viewOf(tool: Tool): string | undefined {
  const meta = tool._meta as
    { ui?: { resourceUri?: unknown }; 'ui/resourceUri'?: unknown } | undefined;
  const uri = meta?.ui?.resourceUri ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' ? uri : undefined;
}

/**
 * `tools/call` sent outside the SDK client (to declare the tasks extension): its questions
 * (`input_required`) are asked and the call retried with the answers, as the SDK does.
 */
async function callAnswering(
  session: ExplorerSession,
  params: Record<string, unknown>,
  signal: AbortSignal,
) {
  let answer = await session.connection.raw('tools/call', params, signal);
  for (let round = 0; round < 10 && answer.result?.resultType === 'input_required'; round++) {
    const inputResponses: Record<string, unknown> = {};
    const requests = (answer.result.inputRequests ?? {}) as Record<string, { params?: Question }>;
    for (const [key, request] of Object.entries(requests)) {
      inputResponses[key] = await session.ask(
        request.params ?? {
          message: 'The server asks a question',
          requestedSchema: { type: 'object', properties: {} },
        },
      );
    }
    const { requestState } = answer.result;
    answer = await session.connection.raw(
      'tools/call',
      { ...params, inputResponses, ...(requestState ? { requestState } : {}) },
      signal,
    );
  }
  return answer;
}

/** Moves the focus to the first refused field, so a keyboard user lands on what to fix. */
function focusFirstInvalid(form: HTMLFormElement | null) {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

/** A tool: what it is, a form for its arguments, and its call as it happens. */
export function ToolPanel(props: { session: ExplorerSession; tool: Tool }) {
  const { session, tool } = props;
  const schema = tool.inputSchema as JsonSchema;
  const [args, setArgs] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [running, setRunning] = useState(false);
  const [progress, setProgress] = useState<Progress>();
  const [lines, setLines] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<Outcome>();
  const [task, setTask] = useState<TaskState>();
  const [asTask, setAsTask] = useState(false);
  const [raw, setRaw] = useState(false);
  const [sent, setSent] = useState<Record<string, unknown>>({});
  const abort = useRef<AbortController | undefined>(undefined);
  const form = useRef<HTMLFormElement>(null);
  const view = viewOf(tool);

  useEffect(() => {
    setArgs((initialValue(schema, schema) as Record<string, unknown>) ?? {});
    setErrors({});
    setOutcome(undefined);
    setTask(undefined);
    setLines([]);
    return () => abort.current?.abort();
  }, [tool]);

  const finish = (result: Outcome, called: Record<string, unknown>) => {
    setOutcome(result);
    const refused = fieldErrorsOf(result);
    setErrors(refused);
    if (Object.keys(refused).length > 0) focusFirstInvalid(form.current);
    session.recordAction({ kind: 'tool', name: tool.name, arguments: called, outcome: result });
  };

  const call = async (event: Event) => {
    event.preventDefault();
    // Raw JSON goes as typed, so the server's own refusals can be seen.
    const refused = raw ? {} : checkValue(schema, schema, args);
    setErrors(refused);
    if (Object.keys(refused).length > 0) return focusFirstInvalid(form.current);
    const called = args;
    const controller = new AbortController();
    abort.current = controller;
    setSent(called);
    setOutcome(undefined);
    setTask(undefined);
    setProgress(undefined);
    setLines([]);
    setRunning(true);
    session.setLogSink((line) => setLines((old) => [...old, line]));
    try {
      if (asTask) {
        const answer = await callAnswering(
          session,
          { name: tool.name, arguments: called },
          controller.signal,
        );
        if (answer.error) finish({ kind: 'error', ...answer.error }, called);
        else if (answer.result?.resultType === 'task') setTask(answer.result as TaskState);
        else finish({ kind: 'result', result: answer.result ?? {} }, called);
        return;
      }
      const result = await session.connection.client.callTool(
        { name: tool.name, arguments: called },
        {
          signal: controller.signal,
          timeout: 600_000,
          resetTimeoutOnProgress: true,
          onprogress: (next) => {
            setProgress(next);
            if (next.message)
              setLines((old) => [
                ...old,
                `progress ${next.progress}${next.total ? `/${next.total}` : ''}: ${next.message}`,
              ]);
          },
        },
      );
      finish({ kind: 'result', result }, called);
    } catch (error) {
      finish(controller.signal.aborted ? { kind: 'cancelled' } : outcomeOfError(error), called);
    } finally {
      setRunning(false);
      session.setLogSink(undefined);
    }
  };

  const output = tool.outputSchema as JsonSchema | undefined;
  return (
    <EntryDetail
      name={tool.name}
      title={tool.title ?? tool.annotations?.title}
      description={tool.description}
      annotations={tool.annotations as Record<string, unknown>}
      manifest={session.manifest[tool.name]}
      facts={view ? [['App view', view]] : []}
    >
      <SchemaTable label="Input schema" schema={schema} />
      {output && <SchemaTable label="Output schema" schema={output} />}
      <form ref={form} class="call-form" onSubmit={(event) => void call(event)} noValidate>
        <h3>Call</h3>
        <SchemaForm
          schema={schema}
          value={args}
          onChange={setArgs}
          errors={errors}
          form={`tool-${tool.name}`}
          onRaw={setRaw}
        />
        <div class="actions">
          {session.connection.supportsTasks() && (
            <span class="field-checkbox">
              <input
                id="run-as-task"
                type="checkbox"
                checked={asTask}
                onChange={(event) => setAsTask(event.currentTarget.checked)}
              />
              <label for="run-as-task">Run as a task</label>
            </span>
          )}
          <button type="submit" class="primary" disabled={running}>
            Call
          </button>
        </div>
      </form>
      <CallProgress
        running={running && !task}
        progress={progress}
        lines={lines}
        onCancel={() => abort.current?.abort()}
      />
      {task && (
        <TaskPanel session={session} task={task} onDone={(result) => finish(result, sent)} />
      )}
      {outcome && !task && <ResultView outcome={outcome} />}
      {view && outcome?.kind === 'result' && !outcome.result.isError && (
        <AppView
          session={session}
          tool={tool.name}
          resourceUri={view}
          arguments={sent}
          result={outcome.result}
        />
      )}
    </EntryDetail>
  );
}
