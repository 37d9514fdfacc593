import { Logger } from '@nestjs/common';
import { errorMessage } from '../utils/value-checks.util.js';
import type { McpTask, McpTaskEvent, NewMcpTask } from '../interfaces/mcp-task-store.interface.js';

type Listener = (event: McpTaskEvent) => void;

/**
 * The subscribers of a task store (the in-memory one, and the Redis one of
 * `nestjs-mcp/redis`): each gets its own copy of every event, and one that throws is
 * logged while the others still run.
 */
export class TaskListeners {
  private readonly logger = new Logger(TaskListeners.name);
  // One entry per subscription (a Set of wrappers: the same function may subscribe twice).
  private readonly listeners = new Set<{ readonly listener: Listener }>();

  subscribe(listener: Listener): () => void {
    const entry = { listener };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(event: McpTaskEvent): void {
    // A snapshot: a listener subscribed while this event is delivered does not get it.
    for (const { listener } of Array.from(this.listeners)) {
      try {
        listener(structuredClone(event));
      } catch (error) {
        this.logger.error(
          `A task store listener failed on "${event.type}": ${errorMessage(error)}`,
          (error as Error)?.stack,
        );
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** A new task as every store records it: `working`, created and last updated at `now`. */
export function workingTask(task: NewMcpTask, now: number): McpTask {
  const at = new Date(now).toISOString();
  return {
    taskId: task.taskId,
    owner: task.owner,
    toolName: task.toolName,
    status: 'working',
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs === undefined ? {} : { pollIntervalMs: task.pollIntervalMs }),
  };
}
