import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type {
  McpDiscoveryHeader,
  McpDiscoveryIcon,
  McpDiscoveryOptions,
  McpDiscoveryRepository,
} from '../../interfaces/mcp-discovery-options.interface.js';

/*
 * The MCP Server Card and the AI Catalog entry that points at it, as the draft of SEP-2127
 * defines them. SEP-2127 delegates its normative text to
 * modelcontextprotocol/experimental-ext-server-card; this file follows its commit 8924e08
 * (2026-07-24): `schema.ts` for the card, `docs/discovery.md` for where and how it is served
 * (the location, the media type, CORS, caching, the AI Catalog). Everything this library
 * takes from the draft is here, so that following a new draft is a change of this file.
 */

/** The one `$schema` a v1 card may name (`ServerCard.$schema`). */
export const SERVER_CARD_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** "Server Cards use the media type `application/mcp-server-card+json`." */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
/** "MCP reserves `GET <streamable-http-url>/server-card`" (Hosted Server Card Location). */
export const SERVER_CARD_SUFFIX = '/server-card';
/** The AI Catalog's well-known URI and media type (AI Catalog, Well-Known URI). */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';
const AI_CATALOG_SPEC_VERSION = '1.0';

/**
 * What every answer of a hosted card carries: Security Considerations, "CORS Requirements"
 * (a card is public and read-only) and "Caching". The AI Catalog gets the same.
 */
export const DISCOVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'public, max-age=3600',
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
};

/**
 * The card's `_meta` keys for what the v1 card has no field for: the capabilities (with
 * `extensions`) that `server/discover` states, and, with `auth`, the Protected Resource
 * Metadata (RFC 9728) a client starts OAuth from. The card's extension point is its
 * namespaced `_meta`; these keys are this library's.
 */
export const CAPABILITIES_META_KEY = 'nestjs-mcp/capabilities';
export const AUTHORIZATION_META_KEY = 'nestjs-mcp/authorization';

/** `description` and `title`: at most this many characters. */
const MAX_TEXT_LENGTH = 100;

/** A remote endpoint of the card (`Remote`): this library serves Streamable HTTP. */
export interface ServerCardRemote {
  type: 'streamable-http';
  url: string;
  headers?: McpDiscoveryHeader[];
  supportedProtocolVersions?: string[];
}

/** `ServerCard` of the draft's `schema.ts`. */
export interface ServerCard {
  $schema: typeof SERVER_CARD_SCHEMA_URL;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  repository?: McpDiscoveryRepository;
  icons?: McpDiscoveryIcon[];
  remotes?: ServerCardRemote[];
  _meta?: Record<string, unknown>;
}

/** What a server's card says, gathered by whoever serves it. */
export interface ServerCardFacts {
  readonly discovery: McpDiscoveryOptions;
  /** The server's `name` option (`serverInfo.name`), the description of last resort. */
  readonly serverName: string;
  readonly version: string;
  readonly instructions?: string;
  /** The endpoint's absolute URL. */
  readonly endpointUrl: string;
  /** The protocol revisions the endpoint serves. */
  readonly protocolVersions: readonly string[];
  /** The capabilities `server/discover` states. */
  readonly capabilities: ServerCapabilities;
  /** With `auth`: the URL of the Protected Resource Metadata. */
  readonly resourceMetadata?: string;
}

/** The Server Card of one server. */
export function serverCard(facts: ServerCardFacts): ServerCard {
  const { discovery, capabilities, resourceMetadata } = facts;
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: discovery.name,
    version: facts.version,
    description: describedAs(discovery, facts.instructions, facts.serverName),
    ...publicFacts(discovery),
    remotes: [
      {
        ...remoteOf(facts.endpointUrl, discovery.headers),
        // Newest first, as a client picks the first it speaks.
        supportedProtocolVersions: facts.protocolVersions.toSorted().toReversed(),
      },
    ],
    _meta: {
      [CAPABILITIES_META_KEY]: copy(capabilities),
      ...(resourceMetadata !== undefined && {
        [AUTHORIZATION_META_KEY]: { resourceMetadata },
      }),
    },
  };
}

/**
 * The fields the app declares as they are: `title`, `websiteUrl`, `repository`, `icons`.
 * The MCP Registry's `server.json` has the same ones.
 */
export function publicFacts(
  discovery: McpDiscoveryOptions,
): Pick<ServerCard, 'title' | 'websiteUrl' | 'repository' | 'icons'> {
  const { title, websiteUrl, repository, icons } = discovery;
  return {
    ...(title !== undefined && { title }),
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(repository !== undefined && { repository: copy(repository) }),
    ...(icons !== undefined && icons.length > 0 && { icons: copy(icons) }),
  };
}

/** A Streamable HTTP remote at `url`, with the headers the app declares. */
export function remoteOf(
  url: string,
  headers: readonly McpDiscoveryHeader[] | undefined,
): Omit<ServerCardRemote, 'supportedProtocolVersions'> {
  return {
    type: 'streamable-http',
    url,
    ...(headers !== undefined && headers.length > 0 && { headers: copy([...headers]) }),
  };
}

/**
 * The card's `description` (required, 1 to 100 characters): `discovery.description`, else
 * the first sentence of the instructions, shortened at a word to fit, else the name.
 */
export function describedAs(
  discovery: McpDiscoveryOptions,
  instructions: string | undefined,
  serverName: string,
): string {
  if (discovery.description !== undefined) return discovery.description;
  const text = instructions?.trim().replaceAll(/\s+/g, ' ');
  if (!text) return `The ${serverName} MCP server`.slice(0, MAX_TEXT_LENGTH);
  const [sentence = text] = text.split(/(?<=[.!?])\s/, 1);
  if (sentence.length <= MAX_TEXT_LENGTH) return sentence;
  const cut = sentence.slice(0, MAX_TEXT_LENGTH - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > 0 ? cut.slice(0, atWord) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** The URL of the card of an endpoint. */
export const serverCardUrl = (endpointUrl: string): string =>
  `${endpointUrl.replace(/\/+$/, '')}${SERVER_CARD_SUFFIX}`;

/** An entry of the AI Catalog for a Server Card (AI Catalog, Server Card Entries). */
export interface AiCatalogEntry {
  identifier: string;
  type: typeof SERVER_CARD_MEDIA_TYPE;
  url: string;
}

export interface AiCatalog {
  specVersion: typeof AI_CATALOG_SPEC_VERSION;
  entries: AiCatalogEntry[];
}

/** The AI Catalog of the app's servers: one entry per card, pointing at its URL. */
export function aiCatalog(cards: readonly { name: string; url: string }[]): AiCatalog {
  return {
    specVersion: AI_CATALOG_SPEC_VERSION,
    entries: cards.map(({ name, url }) => ({
      identifier: aiCatalogIdentifier(name),
      type: SERVER_CARD_MEDIA_TYPE,
      url,
    })),
  };
}

/**
 * The domain-anchored identifier `urn:air:{publisher}:{namespace}:{name}` of a card named
 * `namespace/name` in reverse DNS: `com.example/weather` is `urn:air:example.com:mcp:weather`,
 * as the draft's example gives it.
 */
export function aiCatalogIdentifier(name: string): string {
  const [namespace = '', server = ''] = name.split('/');
  return `urn:air:${namespace.split('.').toReversed().join('.')}:mcp:${server}`;
}

/** A copy the document owns: the app's options are never handed out to be changed. */
const copy = <T>(value: T): T => structuredClone(value);
