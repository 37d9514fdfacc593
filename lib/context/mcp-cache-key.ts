import type { ExecutionContext } from '@nestjs/common';
import { McpExecutionContext } from './mcp-execution-context.js';

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` give the same key. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).toSorted(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/**
 * A cache key for `@nestjs/cache-manager`'s `CacheInterceptor` on tools: the tool name and
 * its arguments. `CacheInterceptor` caches only GET routes by default, and a tool call is
 * a POST, so give it this key:
 *
 * ```ts
 * @McpTool({ description: 'Exchange rates of the day.' })
 * @UseInterceptors(CacheInterceptor)
 * @CacheKey(mcpCacheKey)
 * rates(query: RatesDto) { ... }
 * ```
 *
 * The key does not include the caller: cache only results that are the same for every
 * caller allowed to call the tool (guards still run before the cache).
 * @publicApi
 */
export function mcpCacheKey(context: ExecutionContext): string | undefined {
  const mcp = McpExecutionContext.create(context);
  if (!mcp.isMcp()) return undefined;
  return `mcp:${mcp.getName()}:${stableJson(mcp.getArguments())}`;
}
