import { Logger } from '@nestjs/common';
import type { McpChange, McpChangeBus } from '../interfaces/mcp-scale-out.interface.js';

export type { McpChange } from '../interfaces/mcp-scale-out.interface.js';

/**
 * The one bus of a server's change notifications (list changed, resource updated). The
 * registry publishes; each transport subscribes and delivers them as the client's
 * revision prescribes (2026-07-28 `subscriptions/listen` streams, 2025 sessions and stdio
 * connections). With `scaleOut` (docs/scale-out.md) it is bridged to a bus every instance
 * shares: a change here is delivered here at once and handed to the others; theirs arrive
 * through the bus. Nothing else emits notifications.
 */
export class McpNotifier {
  private readonly logger = new Logger(McpNotifier.name);
  private readonly listeners = new Set<(change: McpChange) => void>();
  private shared?: McpChangeBus;
  private stopBridge?: () => void;

  subscribe(listener: (change: McpChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: McpChange): void {
    this.deliver(change);
    // A lost connection delays the others' copy (the bus resends it), never this one's.
    this.shared?.publish(change).catch((error: unknown) => {
      this.logger.warn(
        `A change (${describe(change)}) did not reach the other instances: ${String(error)}`,
      );
    });
  }

  /** Shares the changes with the other instances through `bus`, until `unbridge()`. */
  bridge(bus: McpChangeBus): void {
    this.unbridge();
    this.shared = bus;
    this.stopBridge = bus.subscribe((change) => this.deliver(change));
  }

  unbridge(): void {
    this.stopBridge?.();
    this.stopBridge = undefined;
    this.shared = undefined;
  }

  private deliver(change: McpChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

const describe = (change: McpChange) =>
  change.kind === 'resource' ? `resource ${change.uri} updated` : `${change.kind} list changed`;
