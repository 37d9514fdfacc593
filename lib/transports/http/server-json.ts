import type {
  McpDiscoveryIcon,
  McpDiscoveryOptions,
} from '../../interfaces/mcp-discovery-options.interface.js';
import { describedAs, publicFacts, remoteOf, type ServerCard } from './server-card.js';

/*
 * The `server.json` of the official MCP Registry, as its schema of 2025-12-11 defines it
 * (`ServerDetail`, https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json;
 * a copy is in test/fixtures/schemas/). Everything this library takes from that schema is
 * here; what the document shares with the Server Card (the description, the declared fields,
 * the remote with its headers) comes from server-card.ts.
 */

/** The schema a `server.json` names, and the registry validates it against. */
export const REGISTRY_SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/**
 * The `_meta` key of what the publisher adds for downstream registries: the only one the
 * schema defines. The registry has no field for OAuth (clients find it from the endpoint's
 * 401 and its Protected Resource Metadata), so the link to that metadata goes here.
 */
export const PUBLISHER_PROVIDED_META_KEY = 'io.modelcontextprotocol.registry/publisher-provided';
/** The key, inside the publisher's metadata, of the link the Server Card carries too. */
export const REGISTRY_AUTHORIZATION_KEY = 'nestjs-mcp/authorization';

/** The icons the registry takes (`Icon`): stricter than the card, which also takes `data:`. */
const REGISTRY_ICON_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/jpg',
  'image/svg+xml',
  'image/webp',
]);
const REGISTRY_ICON_SIZE = /^(\d+x\d+|any)$/;
const REGISTRY_ICON_SRC_MAX_LENGTH = 255;

/**
 * A version the registry refuses: a range (`^1.2.3`, `~1.2`, `>=1`, `1.x`, `1.*`, as the
 * schema lists them), `latest` (refused for packages) or none.
 */
const VERSION_RANGE = /^$|^latest$|^[\^~<>=]|\s|\|\||(^|\.)[xX*](\.|$)/;

/** The `server.json` of one server with a Streamable HTTP remote (`ServerDetail`). */
export interface RegistryServerJson extends Pick<
  ServerCard,
  'name' | 'version' | 'description' | 'title' | 'websiteUrl'
> {
  $schema: typeof REGISTRY_SERVER_SCHEMA_URL;
  repository?: ServerCard['repository'];
  icons?: McpDiscoveryIcon[];
  remotes: Omit<NonNullable<ServerCard['remotes']>[number], 'supportedProtocolVersions'>[];
  _meta?: Record<typeof PUBLISHER_PROVIDED_META_KEY, Record<string, unknown>>;
}

/** What a server's `server.json` says, gathered by whoever writes it. */
export interface ServerJsonFacts {
  readonly discovery: McpDiscoveryOptions;
  /** The server's `name` option (`serverInfo.name`), the description of last resort. */
  readonly serverName: string;
  readonly version: string;
  readonly instructions?: string;
  /** The endpoint's public URL, as clients reach it. */
  readonly endpointUrl: string;
  /** With `auth`: the URL of the Protected Resource Metadata. */
  readonly resourceMetadata?: string;
}

/** The document, and what of the app's declarations the registry would refuse, left out. */
export interface ServerJsonResult {
  readonly serverJson: RegistryServerJson;
  readonly leftOut: readonly string[];
}

/**
 * The `server.json` of one server: its reverse-DNS name, its version, the description and
 * declared fields of its card, and one `streamable-http` remote at the endpoint's public URL
 * with the headers the app declares.
 */
export function registryServerJson(facts: ServerJsonFacts): ServerJsonResult {
  const { discovery, resourceMetadata } = facts;
  const { icons: declared, ...declaredFacts } = publicFacts(discovery);
  const icons = (declared ?? []).filter(isRegistryIcon);
  const leftOut = (declared ?? [])
    .filter((icon) => !icons.includes(icon))
    .map((icon) => `the icon ${shorten(icon.src)}`);
  return {
    serverJson: {
      $schema: REGISTRY_SERVER_SCHEMA_URL,
      name: discovery.name,
      version: facts.version,
      description: describedAs(discovery, facts.instructions, facts.serverName),
      ...declaredFacts,
      ...(icons.length > 0 && { icons }),
      remotes: [remoteOf(facts.endpointUrl, discovery.headers)],
      ...(resourceMetadata !== undefined && {
        _meta: {
          [PUBLISHER_PROVIDED_META_KEY]: { [REGISTRY_AUTHORIZATION_KEY]: { resourceMetadata } },
        },
      }),
    },
    leftOut,
  };
}

/** Why the registry would refuse `version` as the server's version, or `undefined`. */
export function registryVersionProblem(version: string): string | undefined {
  return VERSION_RANGE.test(version.trim())
    ? `the registry takes one exact version, such as 1.0.2, not a range, a wildcard or latest (got "${version}")`
    : undefined;
}

/** An icon the registry's `Icon` accepts: an `https:` URL, a listed type, `WxH` sizes. */
function isRegistryIcon(icon: McpDiscoveryIcon): boolean {
  return (
    icon.src.startsWith('https:') &&
    icon.src.length <= REGISTRY_ICON_SRC_MAX_LENGTH &&
    (icon.mimeType === undefined || REGISTRY_ICON_TYPES.has(icon.mimeType)) &&
    (icon.sizes ?? []).every((size) => REGISTRY_ICON_SIZE.test(size))
  );
}

const shorten = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
