import { isOptionsObject } from './option-checks.js';

const SCALE_OUT_METHODS = [
  'connect',
  'close',
  'changeBus',
  'taskStore',
  'taskQueue',
  'sessionEventStore',
] as const;

/**
 * The problems of `scaleOut` and of what it requires of the other options: several
 * instances verify each other's request state only with one shared secret, and a task
 * queue needs the shared store it is built on (docs/scale-out.md).
 */
export function scaleOutOptionsProblems(options: Record<string, unknown>): string[] {
  const { scaleOut, requestState, tasks } = options;
  const queue = isOptionsObject(tasks) ? tasks.queue : undefined;
  if (scaleOut === undefined) {
    return queue === undefined
      ? []
      : [
          '"tasks.queue" needs "scaleOut": a queue is shared by the instances, such as ' +
            "scaleOut: new RedisScaleOut({ connection: process.env.REDIS_URL }) from 'nestjs-mcp/redis'",
        ];
  }
  if (
    !isOptionsObject(scaleOut) ||
    !SCALE_OUT_METHODS.every((method) => typeof scaleOut[method] === 'function')
  ) {
    return [
      '"scaleOut" must implement McpScaleOut, such as ' +
        "new RedisScaleOut({ connection: process.env.REDIS_URL }) from 'nestjs-mcp/redis'",
    ];
  }
  if (!isOptionsObject(requestState) || requestState.secret === undefined) {
    return [
      '"scaleOut" needs "requestState.secret": every instance must verify the request state ' +
        'another one minted (the second round of an input-required call may reach any ' +
        'instance). Give all of them the same random secret of 32 bytes or more, such as ' +
        'requestState: { secret: process.env.MCP_STATE_SECRET }',
    ];
  }
  return [];
}
