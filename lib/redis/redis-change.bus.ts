import { Logger, type LoggerService } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { McpChange, McpChangeBus } from '../interfaces/mcp-scale-out.interface.js';
import { RedisEventLog } from './redis-event.log.js';

/** A change bus with its own {@link RedisEventLog}, on the stream `<prefix>changes:<server>`. */
export interface RedisChangeBusOptions {
  /** Runs the appends; duplicated for the reader, never closed by the bus. */
  readonly client: Redis;
  /** Prepended to the key, such as `'mcp:'`. */
  readonly prefix: string;
  /** The MCP server whose changes the bus carries. */
  readonly server: string;
  readonly instanceId: string;
  /** @default 10_000 */
  readonly maxLen?: number;
  /** @default 5_000 */
  readonly blockMs?: number;
  /** @default new Logger(RedisChangeBus.name) */
  readonly logger?: LoggerService;
}

const LIST_KINDS: ReadonlySet<unknown> = new Set(['tools', 'prompts', 'resources']);

/**
 * The change as the bus hands it on, or undefined for anything else: whatever is on the
 * stream was written by some process, not necessarily this version of this library.
 */
function asChange(payload: unknown): McpChange | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { kind, uri } = payload as { kind?: unknown; uri?: unknown };
  if (LIST_KINDS.has(kind)) return { kind: kind as 'tools' | 'prompts' | 'resources' };
  if (kind === 'resource' && typeof uri === 'string') return { kind, uri };
  return undefined;
}

/**
 * The changes of one server shared by every instance through a Redis Stream: each hears
 * every change another instance publishes exactly once, in the order Redis stored them,
 * across lost connections. An instance does not hear its own (it tells its own listeners
 * at once).
 */
export class RedisChangeBus implements McpChangeBus {
  /** The stream key of a server's changes. */
  static keyFor(prefix: string, server: string): string {
    return `${prefix}changes:${server}`;
  }

  private readonly log: RedisEventLog;
  private readonly logger: LoggerService;

  /**
   * Over `source` when it is a log (whoever made it starts and closes it, or through this
   * bus), or over a log of its own made from the options.
   */
  constructor(source: RedisEventLog | RedisChangeBusOptions) {
    if (source instanceof RedisEventLog) {
      this.log = source;
      this.logger = new Logger(RedisChangeBus.name);
    } else {
      this.logger = source.logger ?? new Logger(RedisChangeBus.name);
      this.log = new RedisEventLog({
        client: source.client,
        key: RedisChangeBus.keyFor(source.prefix, source.server),
        instanceId: source.instanceId,
        maxLen: source.maxLen,
        blockMs: source.blockMs,
        logger: this.logger,
      });
    }
  }

  /** Starts reading the stream: changes published from now on are heard. */
  start(): Promise<void> {
    return this.log.start();
  }

  /** Stops reading and closes the reader's connection; idempotent. */
  close(): Promise<void> {
    return this.log.close();
  }

  publish(change: McpChange): Promise<void> {
    return this.log.append(
      change.kind === 'resource' ? { kind: change.kind, uri: change.uri } : { kind: change.kind },
    );
  }

  subscribe(listener: (change: McpChange) => void): () => void {
    return this.log.subscribe((payload) => {
      const change = asChange(payload);
      if (change) listener(change);
      else this.logger.debug?.(`Skipped a malformed change: ${JSON.stringify(payload)}`);
    });
  }
}
