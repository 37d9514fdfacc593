import type { Redis } from 'ioredis';

/**
 * The connection the BullMQ `Queue` adds jobs on: a duplicate of the integration's, set so
 * that a command either runs now or fails, never later. The integration's own connection
 * may queue commands while Redis is away (ioredis' default), and a job added after the
 * caller was told "Redis is unavailable" would run a task nobody waits for.
 * - `enableOfflineQueue: false`: while disconnected a command fails at once instead of
 *   waiting in the offline queue for the reconnect.
 * - `maxRetriesPerRequest: 0` and `autoResendUnfulfilledCommands: false`: a command in flight
 *   when the socket drops fails with it instead of being sent again after the reconnect.
 * - `commandTimeout`: a server that accepts the socket and does not answer (paused, swapping)
 *   fails the command after `timeoutMs` (it may still have run there: Redis cannot say).
 * The Queue runs no blocking command, so a command timeout cannot cut one short.
 *
 * Neither duplicate is lazy, whatever the integration's connection is: BullMQ calls
 * `connect()` on a lazy one, and when that first attempt fails (Redis down at start) it never
 * tries again; a connection that connects by itself keeps retrying and BullMQ waits for it.
 */
export function duplicateForCommands(connection: Redis, timeoutMs: number): Redis {
  return connection.duplicate({
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: timeoutMs,
  });
}

/**
 * The connection of the Worker (its regular commands: locks, stalled checks, finishing jobs)
 * and the template BullMQ duplicates for the blocking ones (the Worker's `BZPOPMIN`, the
 * `XREAD` of `QueueEvents`). BullMQ refuses a blocking connection with a retry limit: such a
 * connection waits for Redis to come back rather than failing, which is what a worker wants.
 * On an instance that only watches for lost jobs it is an idle socket (QueueEvents reads on
 * its own duplicate of it): the price of never being lazy (above).
 */
export function duplicateForWorkers(connection: Redis): Redis {
  return connection.duplicate({
    lazyConnect: false,
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    commandTimeout: undefined,
  });
}

// The messages ioredis and BullMQ reject a command with when Redis cannot be reached.
const CONNECTION_FAILURES =
  /Stream isn't writeable|Connection is closed|Command timed out|max retries per request|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE/i;

/** Whether `error` says that Redis could not be reached, rather than what was sent. */
export function isConnectionFailure(error: unknown, connection: Redis): boolean {
  if (connection.status !== 'ready') return true;
  return error instanceof Error && CONNECTION_FAILURES.test(error.message);
}
