// The subscribers of one RedisTaskStore and the channel to the other instances: an event
// reaches the local subscribers at once (as InMemoryTaskStore delivers it) and is appended
// for the others; what the others append reaches the local subscribers.
import { Logger } from '@nestjs/common';
import { errorMessage } from '../utils/value-checks.util.js';
import type { McpTaskEvent } from '../interfaces/mcp-task-store.interface.js';
import { TaskListeners } from '../tasks/task-listeners.js';

/**
 * How the task events of one instance reach the others (`RedisEventLog` is one). The
 * store hands every event to `append` and delivers what `subscribe` hears to its own
 * subscribers, so a cancel on one instance wakes the runner on another.
 * @publicApi
 */
export interface McpTaskEventChannel {
  /** To the other instances. */
  append(payload: unknown): Promise<void>;
  /** What the others appended, until the returned function is called. */
  subscribe(listener: (payload: unknown) => void): () => void;
}

const TASK_EVENTS = new Set(['updated', 'input-complete', 'cancel-requested', 'expired']);

/** What another instance appended, if it is a task event (anything else is ignored). */
export function asTaskEvent(payload: unknown): McpTaskEvent | undefined {
  if (payload === null || typeof payload !== 'object') return undefined;
  const event = payload as { type?: unknown; task?: { taskId?: unknown }; taskId?: unknown };
  if (typeof event.type !== 'string' || !TASK_EVENTS.has(event.type)) return undefined;
  const about =
    event.type === 'updated' || event.type === 'input-complete' ? event.task?.taskId : event.taskId;
  return typeof about === 'string' ? (payload as McpTaskEvent) : undefined;
}

export class TaskEventFanOut {
  private readonly logger = new Logger(TaskEventFanOut.name);
  private readonly listeners = new TaskListeners();
  private readonly unsubscribeChannel: () => void;

  constructor(private readonly channel: McpTaskEventChannel) {
    this.unsubscribeChannel = channel.subscribe((payload) => {
      const event = asTaskEvent(payload);
      if (event) this.deliver(event);
    });
  }

  subscribe(listener: (event: McpTaskEvent) => void): () => void {
    return this.listeners.subscribe(listener);
  }

  /** Here at once, then to the other instances; resolves once the channel took it. */
  async emit(event: McpTaskEvent): Promise<void> {
    this.deliver(event);
    try {
      await this.channel.append(event);
    } catch (error) {
      // The change is stored: rejecting would tell the caller it was not. The other
      // instances still read it (tasks/get); only their wake-up is lost, and logged.
      this.logger.error(
        `Could not tell the other instances of "${event.type}" on a task: ` +
          `${errorMessage(error)}`,
      );
    }
  }

  close(): void {
    this.unsubscribeChannel();
    this.listeners.clear();
  }

  private deliver(event: McpTaskEvent): void {
    this.listeners.emit(event);
  }
}
