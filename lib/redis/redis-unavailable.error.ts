import { errorMessage } from '../utils/value-checks.util.js';

/**
 * What a call of the integration rejects with when Redis cannot be reached: the protocol
 * layer shows its message as the JSON-RPC error, so it names Redis and, when given, the part
 * that needed it ("Redis is unavailable to the MCP task store: connect ECONNREFUSED ...").
 */
export class RedisUnavailableError extends Error {
  constructor(reason: unknown, part?: string) {
    super(`Redis is unavailable${part ? ` to ${part}` : ''}: ${errorMessage(reason)}`, {
      cause: reason,
    });
    this.name = 'RedisUnavailableError';
  }
}
