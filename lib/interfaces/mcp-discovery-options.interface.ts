/**
 * A value a client fills in before it connects: a header of `discovery.headers`, or one of
 * its `{variables}`. The fields of the Server Card's and the MCP Registry's `Input`.
 */
export interface McpDiscoveryInput {
  /** What the value is, for the person who configures the client. */
  description?: string;
  /** Whether the connection needs it. */
  isRequired?: boolean;
  /** Whether it is a secret (a token, a password), which clients keep as one. */
  isSecret?: boolean;
  /** How the value is read. */
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** The value a client proposes. */
  default?: string;
  /** An example shown where the value is typed. */
  placeholder?: string;
  /** A fixed value; `{name}` is replaced by the variable `name`. */
  value?: string;
  /** The only values allowed. */
  choices?: string[];
}

/**
 * An HTTP header clients send to the endpoint, such as the token a guard of `http.guards`
 * reads. Published in the Server Card and in `server.json`, so it must say how to get the
 * value, never hold a secret.
 * @example { name: 'Authorization', value: 'Bearer {token}', isRequired: true, isSecret: true,
 *   variables: { token: { description: 'Your API token', isRequired: true, isSecret: true } } }
 */
export interface McpDiscoveryHeader extends McpDiscoveryInput {
  /** The header's name, such as `Authorization` or `X-API-Key`. */
  name: string;
  /** The `{variables}` of `value`. */
  variables?: Record<string, McpDiscoveryInput>;
}

/** Where the source of the server is, for those who inspect it before they connect. */
export interface McpDiscoveryRepository {
  /** The repository's URL, such as `https://github.com/acme/catalog`. */
  url: string;
  /** The host of the repository, such as `github`. */
  source: string;
  /** The server's folder in a monorepo, relative to its root. */
  subfolder?: string;
  /** The repository's id at its host (stable across renames). */
  id?: string;
}

/** An icon of the server, as MCP describes icons. */
export interface McpDiscoveryIcon {
  /** An `https:` URL (the MCP Registry takes only those) or a `data:` URI. */
  src: string;
  mimeType?: string;
  /** Sizes such as `48x48`, or `any`. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/**
 * How the server describes itself before a client connects: its MCP Server Card (served at
 * `<endpoint>/server-card`, and listed in `/.well-known/ai-catalog.json`) and the
 * `server.json` that `nestjs-mcp server-json` writes for the MCP Registry (docs/discovery.md).
 */
export interface McpDiscoveryOptions {
  /**
   * The server's name in reverse-DNS form, `namespace/name`: a domain you own, reversed
   * (`com.example`), or `io.github.<user or org>`, then the server's name. The MCP Registry
   * accepts only a namespace whose ownership you prove.
   * @example 'com.example/catalog'
   */
  name: string;
  /**
   * Serves the Server Card at `GET <endpoint>/server-card`, without authentication.
   * @default true
   */
  card?: boolean;
  /**
   * Lists the card in the app's AI Catalog, `GET /.well-known/ai-catalog.json`.
   * @default true (when the card is served)
   */
  aiCatalog?: boolean;
  /** A title for people, up to 100 characters. */
  title?: string;
  /**
   * What the server does, up to 100 characters. The card is public: say only what anyone
   * may read.
   * @default the first sentence of `instructions` (shortened to 100 characters), else the
   *   server's name
   */
  description?: string;
  /** The server's home page or documentation. */
  websiteUrl?: string;
  /** Where its source is. */
  repository?: McpDiscoveryRepository;
  /** Icons for clients to display. */
  icons?: McpDiscoveryIcon[];
  /**
   * The headers a client must (or may) send to the endpoint, such as the token of your
   * own guard. With `auth`, leave it out: clients find the OAuth authorization server
   * from the endpoint's 401 and the Protected Resource Metadata the card links to.
   * @default none
   */
  headers?: McpDiscoveryHeader[];
}
