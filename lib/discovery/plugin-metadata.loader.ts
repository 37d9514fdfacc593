import { MCP_DOCBLOCK_METADATA_FACTORY } from '../mcp.constants.js';

/** One file's part of `metadata.ts`: its module, and the docblocks of its classes by name. */
type FileMetadata = [Promise<Record<string, unknown>> | Record<string, unknown>, object];

/** What the `metadata.ts` that the Nest CLI generates for SWC builds exports by default. */
export type McpPluginMetadata = () => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * Attaches the docblocks that the plugin's `ReadonlyVisitor` collected (SWC builds, which
 * run no TypeScript transformer) to their classes, as the transformer would have emitted
 * them. Call it before the app is created, like `SwaggerModule.loadPluginMetadata()`:
 *
 * ```ts
 * import metadata from './metadata.js';
 * await loadMcpPluginMetadata(metadata);
 * const app = await NestFactory.create(AppModule);
 * ```
 * @publicApi
 */
export async function loadMcpPluginMetadata(metadata: McpPluginMetadata): Promise<void> {
  if (typeof metadata !== 'function') {
    throw new TypeError(
      'loadMcpPluginMetadata() takes the default export of the metadata.ts that the Nest CLI ' +
        'generates (a function), not ' +
        `${metadata === null ? 'null' : typeof metadata}.`,
    );
  }
  const all = await metadata();
  // The Nest CLI keys each plugin's part by the name nest-cli.json gives the plugin.
  const part = (all['nestjs-mcp'] ?? all['nestjs-mcp/plugin']) as
    { classes?: FileMetadata[] } | undefined;
  await Promise.all(
    (part?.classes ?? []).map(async ([file, classes]) => {
      const exports = await file;
      for (const [name, docblocks] of Object.entries(classes)) {
        const target = exports[name];
        if (typeof target !== 'function') {
          throw new TypeError(
            `loadMcpPluginMetadata(): metadata.ts names the class ${name}, which its file no ` +
              'longer exports. Regenerate metadata.ts (nest build, or nest start --watch).',
          );
        }
        Object.defineProperty(target, MCP_DOCBLOCK_METADATA_FACTORY, {
          value: () => docblocks,
          configurable: true,
          writable: true,
        });
      }
    }),
  );
}
