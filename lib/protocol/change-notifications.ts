import type { Server } from '@modelcontextprotocol/server';
import type { McpNotifier } from './mcp-notifier.js';

/**
 * Forwards the catalog's changes to a connection (stdio, a 2025 session) until it closes:
 * list changes, and updates of the resources it subscribed to.
 */
export function pushChanges(
  notifier: McpNotifier,
  server: Server,
  subscribed: ReadonlySet<string>,
): void {
  const unsubscribe = notifier.subscribe((change) => {
    // A connection that has not finished its handshake has no one to tell yet.
    if (!server.transport) return;
    let sent: Promise<void> | undefined;
    if (change.kind === 'tools') sent = server.sendToolListChanged();
    else if (change.kind === 'prompts') sent = server.sendPromptListChanged();
    else if (change.kind === 'resources') sent = server.sendResourceListChanged();
    else if (change.kind === 'resource' && subscribed.has(change.uri)) {
      sent = server.sendResourceUpdated({ uri: change.uri });
    }
    void sent?.catch(() => undefined);
  });
  const previous = server.onclose;
  // The SDK's Protocol reports closing through `onclose` only (it is not an EventTarget).
  // oxlint-disable-next-line unicorn/prefer-add-event-listener
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
}
