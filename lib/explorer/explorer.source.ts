import { AuthorizationServerMetadataLoader } from '../oauth/authorization-server-metadata.loader.js';
import type { OAuthResourceServer } from '../oauth/oauth-resource.server.js';
import {
  normalizePath,
  protectedResourceMetadataUrl,
} from '../oauth/protected-resource-metadata.js';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import { absoluteUrlOf, type CardRequest } from '../transports/http/server-card.source.js';
import { httpOriginSource } from './explorer-csp.js';
import type { ExplorerMount } from './explorer-mount.js';
import type { ExplorerAuthConfig, ExplorerConfig, ExplorerServerEntry } from './explorer-page.js';

/** A platform request as the explorer reads it (Express's or Fastify's). */
export type ExplorerRequest = CardRequest & { readonly method?: string; readonly url?: string };

/**
 * The endpoints of an authorization server's metadata the page fetches during a sign-in
 * (RFC 8414 §2, RFC 7591, RFC 7009): its origins join the page's `connect-src`.
 */
const FETCHED_ENDPOINTS = ['token_endpoint', 'registration_endpoint', 'revocation_endpoint'];

const originOf = (url: string): string | undefined =>
  URL.canParse(url) ? httpOriginSource(new URL(url).origin) : undefined;

/**
 * One server's explorer: where it is (the global prefix read at each request, as the
 * endpoint's route is), the configuration its page starts with, and the origins its
 * sign-in reaches.
 */
export class ExplorerSource {
  constructor(
    private readonly server: McpProtocolRuntime,
    /** The endpoint's route, global prefix included. */
    private readonly routePath: () => string,
    private readonly globalPrefix: () => string,
    private readonly mount: ExplorerMount,
    private readonly resourceServer?: OAuthResourceServer,
    private readonly metadata = new AuthorizationServerMetadataLoader(),
  ) {}

  get name(): string {
    return this.server.options.name;
  }

  /** The page's title: `explorer.title`, else `discovery.title`, else the server's name. */
  get title(): string {
    return this.mount.title ?? this.server.options.discovery?.title ?? this.name;
  }

  /** Where the platform serves the explorer: global prefix and path, such as `/api/mcp/explorer`. */
  path(): string {
    return normalizePath(`${this.globalPrefix()}/${this.mount.path}`);
  }

  /**
   * The path a browser asks for: the route's, after the path a proxy puts before the app's
   * routes (that of `http.publicUrl`).
   */
  private browserPath(route: string): string {
    const publicUrl = this.publicUrl();
    const before = publicUrl === undefined ? '' : normalizePath(new URL(publicUrl).pathname);
    return `${before}${normalizePath(route)}`;
  }

  private publicUrl(): string | undefined {
    const { http } = this.server.options;
    return http ? http.publicUrl : undefined;
  }

  /** Where the browser finds this explorer's routes (its assets, its callback, ...). */
  base(): string {
    return this.browserPath(this.path());
  }

  entry(): ExplorerServerEntry {
    return {
      name: this.name,
      title: this.title,
      endpoint: this.browserPath(this.routePath()),
      explorer: this.base(),
    };
  }

  /**
   * The absolute URL of a route: `http.publicUrl`, else the request's origin when the server
   * answers to its host (as the Server Card's); `undefined` otherwise, since any other `Host`
   * is a header anyone may write.
   */
  private absolute(request: ExplorerRequest, route: string): string | undefined {
    return absoluteUrlOf(request, this.server.options.http, normalizePath(route));
  }

  /** The absolute URL of one of the explorer's routes, such as `/oauth/callback`. */
  urlFor(request: ExplorerRequest, suffix: string): string | undefined {
    return this.absolute(request, `${this.path()}${suffix}`);
  }

  /** The configuration of the page for a request; `servers` are the app's explorers. */
  configFor(request: ExplorerRequest, servers: readonly ExplorerSource[]): ExplorerConfig {
    const auth = this.authFor(request);
    return {
      title: this.title,
      endpoint: this.entry().endpoint,
      servers: servers.map((server) => server.entry()),
      locales: [...(this.server.localization?.locales ?? [])],
      ...(auth && { auth }),
      sandbox: `${this.base()}/view-sandbox`,
    };
  }

  /** How the page signs in; `undefined` without `auth`, or when no URL can be named. */
  private authFor(request: ExplorerRequest): ExplorerAuthConfig | undefined {
    if (!this.resourceServer) return undefined;
    const clientMetadataUrl = this.urlFor(request, '/oauth/client-metadata.json');
    const redirectUri = this.urlFor(request, '/oauth/callback');
    const endpointUrl = this.absolute(request, this.routePath());
    const resourceMetadataUrl =
      this.resourceServer.metadataUrlOf(request) ??
      (endpointUrl === undefined ? undefined : protectedResourceMetadataUrl(endpointUrl));
    if (!clientMetadataUrl || !redirectUri || !resourceMetadataUrl) return undefined;
    return {
      resourceMetadataUrl,
      clientMetadataUrl,
      redirectUri,
      scopes: this.server.namedScopes(),
    };
  }

  /**
   * The origins a sign-in fetches from, for the page's `connect-src`: each authorization
   * server's (its metadata), those of the endpoints its metadata names, and the one of the
   * Protected Resource Metadata. An authorization server that cannot be asked now adds its
   * own origin only; the page then reports what fails.
   */
  async connectOrigins(request: ExplorerRequest): Promise<string[]> {
    if (!this.resourceServer) return [];
    const { authorizationServers } = this.resourceServer.options;
    const origins = await Promise.all(
      authorizationServers.map(async (issuer) => {
        const document = (await this.metadata.load(issuer).catch(() => undefined)) as
          Record<string, unknown> | undefined;
        const endpoints = FETCHED_ENDPOINTS.map((key) => document?.[key]).filter(
          (url): url is string => typeof url === 'string',
        );
        return [issuer, ...endpoints].map(originOf);
      }),
    );
    // A resource named by `auth.resource` may be on another origin than the page's.
    const { resource } = this.resourceServer.options;
    const resourceOrigin = resource === undefined ? undefined : originOf(resource);
    const own = this.absolute(request, '');
    const elsewhere = own === undefined || originOf(own) !== resourceOrigin;
    return [...origins.flat(), elsewhere ? resourceOrigin : undefined].filter(
      (origin): origin is string => origin !== undefined,
    );
  }
}
