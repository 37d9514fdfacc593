import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { resourceNotFound, uriTooLong } from '../../execution/protocol-error.mapper.js';
import { assertStateOf } from '../request-scopes.js';
import type { Handlers } from './catalog-serving.interface.js';
import { listPage } from './list-page.js';

/** `resources/list`, `resources/templates/list` and `resources/read`. */
export const resourceHandlers: Handlers = (serving, target) => {
  const { catalog } = serving;
  const { resources, templates } = catalog;
  const { server } = target;

  server.setRequestHandler('resources/list', async (request, ctx) => {
    const cursor = request.params?.cursor;
    const { items, nextCursor } = await listPage(
      serving,
      target,
      resources,
      'resources',
      ctx,
      cursor,
    );
    if (!serving.listTemplatesAsResources || nextCursor) return { resources: items, nextCursor };
    // Templates follow the last page of resources, for clients that never list templates.
    const all = await listPage(
      serving,
      target,
      templates,
      'templates',
      ctx,
      undefined,
      Number.MAX_SAFE_INTEGER,
    );
    const asResources = all.items.map(({ uriTemplate, ...rest }) => ({
      ...rest,
      uri: uriTemplate,
    }));
    return { resources: [...items, ...asResources] };
  });

  server.setRequestHandler('resources/templates/list', async (request, ctx) => {
    const cursor = request.params?.cursor;
    const { items, nextCursor } = await listPage(
      serving,
      target,
      templates,
      'templates',
      ctx,
      cursor,
    );
    return { resourceTemplates: items, nextCursor };
  });

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const scope = target.scopeOf(ctx);
    // Refused before any template is tried (issue 31): the work of a read stays bounded.
    if (uri.length > catalog.maxUriLength) {
      throw uriTooLong(uri.length, catalog.maxUriLength, scope.texts);
    }
    const found = catalog.findResource(uri);
    if (!found) throw resourceNotFound(uri, target.era, scope.texts);
    assertStateOf(ctx, uri);
    const result = await found.resource.read(
      serving.call('resource', uri, found.variables, scope),
      uri,
    );
    if (!target.canAsk && isInputRequiredResult(result)) serving.cannotAsk(`resource "${uri}"`);
    return result;
  });
};
