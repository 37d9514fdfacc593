import { localhostAllowedHostnames, validateHostHeader } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import type { McpDiscoveryOptions } from '../../interfaces/mcp-discovery-options.interface.js';
import { derivedCardUrlMessage } from '../../messages/server-card.messages.js';
import type { OAuthResourceServer } from '../../oauth/oauth-resource.server.js';
import {
  normalizePath,
  protectedResourceMetadataUrl,
} from '../../oauth/protected-resource-metadata.js';
import type { McpModuleOptions } from '../../interfaces/mcp-module-options.interface.js';
import type { McpProtocolRuntime } from '../../protocol/protocol-runtime.interface.js';
import { supportedRevisions } from '../../protocol/protocol-revisions.js';
import { webOrigin } from '../../utils/web-origin.util.js';
import { serverCard, SERVER_CARD_SUFFIX, serverCardUrl, type ServerCard } from './server-card.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
const LOCALHOST_NAMES: readonly string[] = localhostAllowedHostnames();

/** A platform request as far as the card reads it (Express's or Fastify's). */
export interface CardRequest {
  readonly headers: Record<string, string | string[] | undefined>;
  /** The platform's scheme and host, `trust proxy` applied (Express, Fastify). */
  readonly protocol?: unknown;
  readonly host?: unknown;
  readonly socket?: { localAddress?: string; encrypted?: boolean };
}

/**
 * The origin a request was sent to, when the server answers to its host: one of
 * `http.allowedHosts`, or without that option a localhost name on a loopback connection,
 * the hosts DNS-rebinding protection accepts (docs/security.md, "Origin and Host"). Any
 * other host is a header anyone may write, and must not choose the URL the card names.
 */
export function allowedOriginOf(
  request: CardRequest,
  allowedHosts: readonly string[] | undefined,
): string | undefined {
  const loopback = LOOPBACK.test(request.socket?.localAddress ?? '');
  const hosts = allowedHosts ?? (loopback ? LOCALHOST_NAMES : undefined);
  const host =
    typeof request.host === 'string' && request.host !== '' ? request.host : request.headers.host;
  if (!hosts || typeof host !== 'string' || !validateHostHeader(host, [...hosts]).ok) {
    return undefined;
  }
  const protocol =
    typeof request.protocol === 'string'
      ? request.protocol
      : request.socket?.encrypted
        ? 'https'
        : 'http';
  return webOrigin(`${protocol}://${host}`);
}

/**
 * The absolute URL of a route of the app: `http.publicUrl` and the route, else the
 * request's origin and the route when the server answers to its host (`allowedOriginOf`);
 * `undefined` otherwise. What the Server Card and the explorer name URLs with.
 */
export function absoluteUrlOf(
  request: CardRequest,
  http: McpModuleOptions['http'],
  route: string,
): string | undefined {
  const options = http || undefined;
  if (options?.publicUrl !== undefined) return `${options.publicUrl.replace(/\/+$/, '')}${route}`;
  const origin = allowedOriginOf(request, options?.allowedHosts);
  return origin === undefined ? undefined : `${origin}${route}`;
}

/**
 * The Server Card of one server, made for each request from what the server is now: its
 * options, its endpoint's absolute URL and the capabilities an SDK server of it states in
 * `server/discover`, which change with the catalog (a task tool adds the tasks extension).
 * The card lists no primitive (the draft's card has no field for them), so no caller's
 * guards decide what it holds.
 */
export class ServerCardSource {
  private readonly logger = new Logger(ServerCardSource.name);
  private warnedDerived = false;

  constructor(
    private readonly server: McpProtocolRuntime,
    /** The endpoint's route, global prefix included, read when a request comes. */
    private readonly routePath: () => string,
    private readonly resourceServer?: OAuthResourceServer,
  ) {}

  get discovery(): McpDiscoveryOptions {
    return this.server.options.discovery!;
  }

  /** Where the card is served: the endpoint's path and `/server-card`, lower case. */
  cardPath(): string {
    return `${normalizePath(this.routePath())}${SERVER_CARD_SUFFIX}`.toLowerCase();
  }

  /**
   * The endpoint's absolute URL: `http.publicUrl` and the route, else the request's origin
   * and the route when the server answers to its host; `undefined` otherwise.
   */
  endpointUrlFor(request: CardRequest): string | undefined {
    const { http } = this.server.options;
    const url = absoluteUrlOf(request, http, normalizePath(this.routePath()));
    if (url === undefined || (http && http.publicUrl !== undefined)) return url;
    if (!this.warnedDerived) {
      this.warnedDerived = true;
      this.logger.warn(derivedCardUrlMessage(this.server.options.name, url));
    }
    return url;
  }

  /** The URL of the card, for the AI Catalog. */
  cardUrlFor(request: CardRequest): string | undefined {
    const endpointUrl = this.endpointUrlFor(request);
    return endpointUrl === undefined ? undefined : serverCardUrl(endpointUrl);
  }

  /** The card for a request, or `undefined` when no endpoint URL can be named for it. */
  cardFor(request: CardRequest): ServerCard | undefined {
    const endpointUrl = this.endpointUrlFor(request);
    if (endpointUrl === undefined) return undefined;
    const { options } = this.server;
    // What `server/discover` states, extensions included.
    const capabilities = this.server.capabilities('modern');
    return serverCard({
      discovery: this.discovery,
      serverName: options.name,
      version: options.version,
      instructions: options.instructions,
      endpointUrl,
      protocolVersions: supportedRevisions('modern'),
      capabilities,
      ...(this.resourceServer && {
        // Where the endpoint's 401 challenge points (`auth.resource`, or derived as the
        // card's URL was), else at the endpoint the card names.
        resourceMetadata:
          this.resourceServer.metadataUrlOf(request) ?? protectedResourceMetadataUrl(endpointUrl),
      }),
    });
  }
}
