import { pushChanges } from '../change-notifications.js';
import type { Handlers } from './handler-context.js';

/**
 * `resources/subscribe` and `resources/unsubscribe`, and, on a connection that outlives
 * requests, the changes of the catalog pushed to it (list changes, and updates of the
 * resources it subscribed to).
 */
export const subscriptionHandlers: Handlers = (context, unit) => {
  const subscribed = new Set<string>();
  unit.server.setRequestHandler('resources/subscribe', (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  unit.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  if (unit.live) pushChanges(context.notifier, unit.server, subscribed);
};
