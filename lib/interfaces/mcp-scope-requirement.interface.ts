/** What `@McpScopes()` requires: every scope of `all`, or at least one of `any`. */
export type McpScopeRequirement = { all: readonly string[] } | { any: readonly string[] };
