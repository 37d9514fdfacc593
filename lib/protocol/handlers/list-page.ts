import type { ServerContext } from '@modelcontextprotocol/server';
import { McpCall, type RequestScope } from '../../execution/mcp-call.js';
import type { McpPrimitiveKind } from '../../interfaces/mcp-call-context.interface.js';
import type {
  ListPage,
  PrimitiveRegistry,
  RegisteredPrimitive,
} from '../../registry/primitive.registry.js';
import { KIND_OF, viewIn, type EditionList } from '../localized-serving.js';
import type { CatalogServing, HandledServer } from './catalog-serving.interface.js';

/** The guards' context for deciding whether a caller sees one entry of a list. */
const listing =
  (scope: RequestScope, kind: McpPrimitiveKind) => (entry: RegisteredPrimitive<unknown>) =>
    new McpCall({ kind, name: entry.key, arguments: {}, scope, phase: 'list' });

/**
 * One page of a list, as this caller may see it; `nextCursor` is left out on the last.
 * With `i18n`, the definitions of the caller's locale (each made once per locale).
 */
export function listPage<D, E extends RegisteredPrimitive<D>>(
  serving: CatalogServing,
  target: HandledServer,
  registry: PrimitiveRegistry<D, E>,
  list: EditionList,
  ctx: ServerContext,
  cursor: string | undefined,
  pageSize = serving.pageSize,
): Promise<ListPage<D>> {
  const scope = target.scopeOf(ctx);
  const { localization } = serving;
  const view = localization && viewIn<D>(localization.edition(scope.locale), list);
  return registry.page(listing(scope, KIND_OF[list]), cursor, pageSize, view);
}
