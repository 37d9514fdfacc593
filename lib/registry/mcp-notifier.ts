/** A change clients may be told about. */
export type McpChange =
  | { readonly kind: 'tools' | 'prompts' | 'resources' }
  | { readonly kind: 'resource'; readonly uri: string };

/**
 * The one bus of a server's change notifications (list changed, resource updated). The
 * registry publishes; each transport subscribes and delivers them as the client's
 * revision prescribes (2026-07-28 `subscriptions/listen` streams, 2025 sessions and stdio
 * connections). Several instances behind a load balancer would share it through Redis:
 * nothing else emits notifications.
 */
export class McpNotifier {
  private readonly listeners = new Set<(change: McpChange) => void>();

  subscribe(listener: (change: McpChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: McpChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
