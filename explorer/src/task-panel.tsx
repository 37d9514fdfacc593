import { useEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from './call-outcome.js';
import type { ExplorerSession } from './explorer-session.js';
import type { Question } from './mcp-connection.js';
import { ResultView } from './result-view.js';

/** A task as `tasks/get` (2026-07-28) shows it. */
export interface TaskState {
  taskId: string;
  status: string;
  statusMessage?: string;
  pollIntervalMs?: number;
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, { method?: string; params?: Question }>;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * A tool run as a task (the tasks extension): its status polled with `tasks/get`, its questions
 * answered with `tasks/update`, stopped with `tasks/cancel`, its result shown when done.
 */
export function TaskPanel(props: {
  session: ExplorerSession;
  task: TaskState;
  onDone(outcome: Outcome): void;
}) {
  const { connection } = props.session;
  const [task, setTask] = useState(props.task);
  const [problem, setProblem] = useState<string>();
  const done = useRef(false);
  const answered = useRef(new Set<string>());

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (state: TaskState) => {
      if (done.current) return;
      done.current = true;
      props.onDone(
        state.error
          ? { kind: 'error', ...state.error }
          : state.result
            ? { kind: 'result', result: state.result }
            : state.status === 'cancelled'
              ? { kind: 'cancelled' }
              : { kind: 'error', message: state.statusMessage ?? `The task ended ${state.status}` },
      );
    };
    const answer = async (state: TaskState) => {
      const inputResponses: Record<string, unknown> = {};
      for (const [key, request] of Object.entries(state.inputRequests ?? {})) {
        // A poll may see the task still waiting on a question already answered.
        if (answered.current.has(key)) continue;
        answered.current.add(key);
        inputResponses[key] = await props.session.ask(
          request.params ?? {
            message: 'The task asks a question',
            requestedSchema: { type: 'object', properties: {} },
          },
        );
      }
      if (Object.keys(inputResponses).length > 0) {
        await connection.raw('tasks/update', { taskId: state.taskId, inputResponses });
      }
    };
    const poll = async () => {
      if (stopped) return;
      try {
        const answerOf = await connection.raw('tasks/get', { taskId: props.task.taskId });
        if (stopped) return;
        if (answerOf.error)
          throw new Error(`Error ${answerOf.error.code}: ${answerOf.error.message}`);
        const state = answerOf.result as TaskState;
        setTask(state);
        if (FINISHED.has(state.status)) return finish(state);
        if (state.status === 'input_required' && state.inputRequests) await answer(state);
      } catch (error) {
        setProblem((error as Error).message);
      }
      timer = setTimeout(poll, Math.min(Math.max(task.pollIntervalMs ?? 1000, 250), 5000));
    };
    timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.task.taskId]);

  const cancel = async () => {
    const answer = await connection.raw('tasks/cancel', { taskId: task.taskId });
    if (answer.error) setProblem(`Error ${answer.error.code}: ${answer.error.message}`);
    else if (answer.result) setTask((old) => ({ ...old, ...(answer.result as TaskState) }));
  };

  const finished = FINISHED.has(task.status);
  return (
    <section aria-label="Task" class="task">
      <h3>Task</h3>
      <p>
        Status: <strong class={`status status-${task.status}`}>{task.status}</strong>
        <span class="muted"> · id {task.taskId}</span>
      </p>
      {task.statusMessage && (
        <p class="status-message" aria-live="polite">
          {task.statusMessage}
        </p>
      )}
      {!finished && (
        <button type="button" class="danger" onClick={() => void cancel()}>
          Cancel task
        </button>
      )}
      {problem && (
        <p role="alert" class="field-error">
          {problem}
        </p>
      )}
      {finished && (task.result || task.error) && (
        <ResultView
          outcome={
            task.error ? { kind: 'error', ...task.error } : { kind: 'result', result: task.result! }
          }
        />
      )}
    </section>
  );
}
