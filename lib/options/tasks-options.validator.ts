import { isOptionsObject, wholeNumberProblem } from './option-checks.js';

const STORE_METHODS = ['create', 'get', 'complete', 'fail', 'requestCancel', 'subscribe'] as const;

/**
 * The problems of the `tasks` option (its unknown keys are reported with the others, by
 * the module options' unknown-key check).
 */
export function tasksOptionsProblems(tasks: unknown): string[] {
  if (tasks === undefined) return [];
  if (!isOptionsObject(tasks)) {
    return ['"tasks" must be an object such as { ttlMs: 600_000 }'];
  }
  const problems = (['ttlMs', 'pollIntervalMs', 'maxTasks'] as const)
    .map((key) => wholeNumberProblem(`tasks.${key}`, tasks[key]))
    .filter((problem): problem is string => problem !== undefined);
  const { store } = tasks;
  if (
    store !== undefined &&
    !(
      isOptionsObject(store) && STORE_METHODS.every((method) => typeof store[method] === 'function')
    )
  ) {
    problems.push(
      '"tasks.store" must implement McpTaskStore (create, get, complete, fail, requestCancel, ' +
        'subscribe, ...), such as new InMemoryTaskStore()',
    );
  }
  const { queue } = tasks;
  if (queue !== undefined && !(typeof queue === 'string' && /^[\w.-]{1,100}$/.test(queue))) {
    problems.push(
      `"tasks.queue" must be a queue name of letters, digits, '_', '.' or '-', such as 'mcp-tasks' (got ${JSON.stringify(queue)})`,
    );
  }
  return problems;
}
