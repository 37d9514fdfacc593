/** A URI the manifest can be read at: a scheme, then no spaces and no template braces. */
const MANIFEST_URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s{}]+$/;

/**
 * The problems of the options that decide how tools are named and announced: `naming` (a
 * function of the class, method and route) and `manifest` (`true`, `false` or a URI).
 */
export function namingOptionsProblems(naming: unknown, manifest: unknown): string[] {
  const problems: string[] = [];
  if (naming !== undefined && typeof naming !== 'function') {
    problems.push(
      '"naming" must be a function of { class, method, route } that returns a tool name, ' +
        'such as McpNaming.qualified',
    );
  }
  if (
    manifest !== undefined &&
    typeof manifest !== 'boolean' &&
    !(typeof manifest === 'string' && MANIFEST_URI.test(manifest))
  ) {
    problems.push(
      `"manifest" must be true (published at mcp://<name>/manifest), false, or the URI to ` +
        `publish it at, such as 'mcp://catalog/system/manifest' (got ${JSON.stringify(manifest)})`,
    );
  }
  return problems;
}
