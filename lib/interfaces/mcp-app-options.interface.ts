import type {
  McpUiResourceCsp,
  McpUiResourcePermissions,
  McpUiToolVisibility,
} from '@modelcontextprotocol/ext-apps';

/**
 * One view of MCP Apps (the extension `io.modelcontextprotocol/ui`): an HTML document a host
 * renders in a sandboxed iframe for the tools that name it. It is published as the resource
 * `ui://<server name>/<view name>`, MIME type `text/html;profile=mcp-app`.
 */
export interface McpAppViewOptions {
  /**
   * The absolute path of the view's HTML, a single-file build (scripts and styles inlined):
   * read once at bootstrap, which fails when the file cannot be read.
   * @example file: fileURLToPath(new URL('../views/product-card.html', import.meta.url))
   */
  file: string;
  /** A title for hosts to show. */
  title?: string;
  /** What the view shows. */
  description?: string;
  /**
   * The origins the view may reach (`connectDomains`, `resourceDomains`, `frameDomains`,
   * `baseUriDomains`); the host turns them into its Content Security Policy.
   * @default none: the view has no network access (inline its assets)
   */
  csp?: McpUiResourceCsp;
  /**
   * Browser capabilities the view asks for (`camera`, `microphone`, `geolocation`,
   * `clipboardWrite`); hosts may grant them.
   * @default none
   */
  permissions?: McpUiResourcePermissions;
  /**
   * A dedicated origin for the view's sandbox, in the form the host documents.
   * @default the host's own choice
   */
  domain?: string;
  /**
   * Whether the host should draw a border and background around the view.
   * @default the host's own choice
   */
  prefersBorder?: boolean;
}

/** Options of `@McpAppView()`: those of a view, its HTML coming from the method. */
export type McpAppViewDecoratorOptions = Omit<McpAppViewOptions, 'file'>;

/** The `apps` option of `McpModule.forRoot()`: MCP Apps views (docs/apps.md). */
export interface McpAppsOptions {
  /**
   * Views by name; a tool shows one with `@McpTool({ app: { view: 'product-card' } })`.
   * Names follow the pattern of tool names (`^[a-zA-Z0-9_.-]{1,128}$`).
   * @example views: { 'product-card': { file: join(__dirname, 'views/product-card.html') } }
   * @default none
   */
  views?: Readonly<Record<string, McpAppViewOptions>>;
}

/** Who may call a tool of an MCP App: the model, the view (`app`), or both. */
export type McpAppToolVisibility = McpUiToolVisibility;

/** The `app` option of `@McpTool()`: how the tool takes part in MCP Apps. */
export interface McpToolAppOptions {
  /**
   * The view the host renders with the tool's result: a view of the `apps.views` option or
   * of an `@McpAppView()` method. The tool lists `_meta.ui.resourceUri` (and the flat
   * `_meta["ui/resourceUri"]` older hosts read).
   * @default no view
   */
  view?: string;
  /**
   * Who may call the tool, as hosts read it: `['app']` hides it from the model, for tools
   * only a view calls. It is no authorization: guards and `@McpScopes()` decide who may call
   * it, and `tools/list` lists it to every caller they allow.
   * @default ['model', 'app']
   */
  visibility?: McpAppToolVisibility[];
}
