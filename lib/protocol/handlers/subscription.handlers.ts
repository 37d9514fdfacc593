import { pushChanges } from '../change-notifications.js';
import type { Handlers } from './catalog-serving.interface.js';

/**
 * `resources/subscribe` and `resources/unsubscribe`, and, on a connection that outlives
 * requests, the changes of the catalog pushed to it (list changes, and updates of the
 * resources it subscribed to).
 */
export const subscriptionHandlers: Handlers = (serving, target) => {
  const subscribed = new Set<string>();
  target.server.setRequestHandler('resources/subscribe', (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  target.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  if (target.live) pushChanges(serving.notifier, target.server, subscribed);
};
