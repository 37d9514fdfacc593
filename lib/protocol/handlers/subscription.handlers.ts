import { McpCall, type RequestScope } from '../../execution/mcp-call.js';
import { resourceNotFound } from '../../execution/protocol-error.mapper.js';
import { pushChanges } from '../change-notifications.js';
import type { CatalogServing, Handlers } from './catalog-serving.interface.js';

/**
 * Whether the caller may read the resource a URI names: its guards decide, as for a read.
 * A URI that names none, or one the caller may not read, is refused alike.
 */
async function mayRead(serving: CatalogServing, uri: string, scope: RequestScope) {
  const found = serving.catalog.findResource(uri);
  if (!found) return false;
  const { isVisible } = found.resource;
  if (!isVisible.guarded) return true;
  const call = new McpCall({ kind: 'resource', name: uri, arguments: found.variables, scope });
  return isVisible(call);
}

/**
 * `resources/subscribe` and `resources/unsubscribe`, and, on a connection that outlives
 * requests, the changes of the catalog pushed to it (list changes, and updates of the
 * resources it subscribed to). A caller subscribes only to what it may read.
 */
export const subscriptionHandlers: Handlers = (serving, target) => {
  const subscribed = new Set<string>();
  target.server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const { uri } = request.params;
    const scope = target.scopeOf(ctx);
    if (!(await mayRead(serving, uri, scope))) {
      throw resourceNotFound(uri, target.era, scope.texts);
    }
    subscribed.add(uri);
    return {};
  });
  target.server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  if (target.connection) pushChanges(serving.notifier, target.connection, subscribed);
};
