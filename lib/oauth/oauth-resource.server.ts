import type { AuthInfo, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { OAuthError, OAuthErrorCode, validateHostHeader } from '@modelcontextprotocol/server';
import { HttpException, Logger } from '@nestjs/common';
import type { McpAuthOptions } from '../interfaces/mcp-auth-options.interface.js';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { DEFAULT_JWT_ALGORITHMS } from '../options/auth-options.validator.js';
import { toAuthInfo } from './auth-info.factory.js';
import { bearerChallenge, challengeScopes } from './bearer-challenge.js';
import { extractBearerToken, type TokenCarrier } from './bearer-token.extractor.js';
import { JwtAccessTokenVerifier, looksLikeJwt } from './jwt-access-token.verifier.js';
import { OAuthChallengeError, UnservedHostError } from './oauth-challenge.error.js';
import { headerSafe, oauthMessages } from './oauth.messages.js';
import {
  normalizePath,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
} from './protected-resource-metadata.js';
import { TokenIntrospectionVerifier } from './token-introspection.verifier.js';
import { OutageLog } from './outage.log.js';

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

/** What the resource server knows of the endpoint it protects. */
export interface ProtectedEndpoint {
  /** The endpoint's route, global prefix included; none over stdio. */
  readonly routePath?: () => string;
  /** Every scope `@McpScopes()` names on the server (the default `scopes_supported`). */
  readonly namedScopes?: () => string[];
  /**
   * `http.allowedHosts`: without `auth.resource`, the resource is derived from a request
   * whose host is one of these, and from no other. Without either, it is never derived.
   */
  readonly allowedHosts?: readonly string[];
}

/** The request as far as the resource server reads it (Express, Fastify or stdio's). */
type ResourceRequest = TokenCarrier & {
  originalUrl?: string;
  protocol?: unknown;
  host?: unknown;
  socket?: { encrypted?: boolean };
  raw?: { socket?: { encrypted?: boolean } };
};

/** The SDK's bearer-auth answers and a Nest HttpException mean what they say. */
function customVerifierRefusal(error: unknown): Error {
  if (error instanceof OAuthChallengeError) return error;
  if (error instanceof OAuthError) {
    return error.code === OAuthErrorCode.InsufficientScope
      ? new OAuthChallengeError(403, 'insufficient_scope', error.message)
      : OAuthChallengeError.invalidToken(error.message);
  }
  if (error instanceof HttpException && error.getStatus() === 403) {
    return new OAuthChallengeError(403, 'insufficient_scope', error.message);
  }
  return OAuthChallengeError.invalidToken(
    oauthMessages.refused((error as Error)?.message ?? String(error)),
  );
}

/** The host a request names: the platform's (trust proxy applied), else its `Host` header. */
function hostOf(request: ResourceRequest): string | undefined {
  if (typeof request.host === 'string' && request.host !== '') return request.host;
  const host = request.headers?.host;
  return typeof host === 'string' && host !== '' ? host : undefined;
}

/** Resources compare without a fragment and one trailing slash (as the MCP SDK does). */
const comparable = (resource: string) => resource.split('#')[0].replace(/\/$/, '');

/**
 * One MCP server as an OAuth 2.1 resource server (MCP `basic/authorization`): its
 * canonical URL, its Protected Resource Metadata (RFC 9728), the verification of bearer
 * tokens (JWT with `jose`, introspection, or the app's `verifyToken`) and the challenges
 * of its refusals. Created once per `McpModule` registration that sets `auth`.
 */
export class OAuthResourceServer {
  private readonly logger = new Logger(OAuthResourceServer.name);
  private readonly jwt: JwtAccessTokenVerifier;
  private readonly introspection?: TokenIntrospectionVerifier;
  private readonly requiredScopes: readonly string[];
  private warnedDerived = false;
  /** The refusals for an unreachable authorization server, warned about once a minute. */
  readonly outages = new OutageLog();

  constructor(
    readonly options: McpAuthOptions,
    private readonly endpoint: ProtectedEndpoint = {},
  ) {
    const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
    this.jwt = new JwtAccessTokenVerifier({
      authorizationServers: options.authorizationServers,
      algorithms: options.algorithms ?? DEFAULT_JWT_ALGORITHMS,
      clockToleranceSeconds,
      tokenTypes: options.tokenTypes ?? ['at+jwt'],
    });
    if (options.introspection) {
      this.introspection = new TokenIntrospectionVerifier(
        options.introspection,
        options.authorizationServers,
        clockToleranceSeconds,
      );
    }
    this.requiredScopes = challengeScopes(options.requiredScopes ?? []);
  }

  /**
   * The canonical URL of the server: `auth.resource`, else the request's origin and the
   * endpoint's path when its host is one of `http.allowedHosts` (with a warning, once);
   * `undefined` otherwise (stdio, or a host outside the list). The host is the platform's
   * (`X-Forwarded-Host` behind a trusted proxy), so that header too must name a listed host.
   */
  resourceOf(request: ResourceRequest): string | undefined {
    if (this.options.resource) return this.options.resource;
    const path = this.endpoint.routePath?.();
    const host = hostOf(request);
    const hosts = this.endpoint.allowedHosts;
    if (path === undefined || host === undefined || !hosts) return undefined;
    if (!validateHostHeader(host, [...hosts]).ok) return undefined;
    const encrypted = request.socket?.encrypted ?? request.raw?.socket?.encrypted;
    const protocol =
      typeof request.protocol === 'string' ? request.protocol : encrypted ? 'https' : 'http';
    const resource = `${protocol}://${host}${normalizePath(path)}`;
    if (!this.warnedDerived) {
      this.warnedDerived = true;
      this.logger.warn(oauthMessages.derivedResource(resource));
    }
    return resource;
  }

  /** The URL of this server's Protected Resource Metadata, as challenges name it. */
  metadataUrlOf(request: ResourceRequest): string | undefined {
    const resource = this.resourceOf(request);
    return resource === undefined ? undefined : protectedResourceMetadataUrl(resource);
  }

  /** The RFC 9728 document for a request (the resource may be derived from it). */
  metadataDocument(request: ResourceRequest): OAuthProtectedResourceMetadata {
    const { authorizationServers, scopesSupported, resourceName, resourceDocumentation } =
      this.options;
    return protectedResourceMetadata({
      resource: this.resourceOf(request) ?? '',
      authorizationServers,
      scopesSupported: scopesSupported ?? this.endpoint.namedScopes?.() ?? [],
      resourceName,
      resourceDocumentation,
    });
  }

  /**
   * The verified identity of the request's bearer token, with the endpoint's
   * `requiredScopes` checked.
   * @throws OAuthChallengeError when there is no token, it is not valid (401), or it lacks
   *   a required scope (403)
   * @throws VerifierUnavailableError when the authorization server cannot be asked
   * @throws UnservedHostError when the resource would be derived from a host outside
   *   `http.allowedHosts`
   */
  async authenticate(request: ResourceRequest): Promise<AuthInfo> {
    const resource = this.resourceOf(request);
    if (resource === undefined && this.endpoint.routePath) {
      throw new UnservedHostError(
        oauthMessages.unservedHost(
          (hostOf(request) ?? '').slice(0, 200),
          this.endpoint.allowedHosts ?? [],
        ),
      );
    }
    const token = extractBearerToken({
      headers: request.headers,
      url: request.originalUrl ?? request.url,
    });
    if (token === undefined) {
      throw new OAuthChallengeError(401, undefined, oauthMessages.missingToken());
    }
    const audience = this.audienceFor(resource);
    const metadataUrl = resource === undefined ? undefined : protectedResourceMetadataUrl(resource);
    const auth = await this.verify(token, request, audience, metadataUrl);
    const missing = this.requiredScopes.filter((scope) => !auth.scopes.includes(scope));
    if (missing.length > 0) {
      throw new OAuthChallengeError(
        403,
        'insufficient_scope',
        oauthMessages.insufficientScope(this.requiredScopes, auth.scopes),
        this.requiredScopes,
      );
    }
    return auth;
  }

  /**
   * The `WWW-Authenticate` value of a refusal. A 401 names the endpoint's required scopes,
   * a 403 every scope the request needs.
   */
  challengeOf(error: OAuthChallengeError, request: ResourceRequest): string {
    return bearerChallenge({
      error: error.code,
      description: error.description,
      scopes: error.status === 403 ? error.scopes : this.requiredScopes,
      resourceMetadata: this.metadataUrlOf(request),
    });
  }

  /**
   * The scopes an operation guarded by `@McpScopes()` needs when the token lacks them
   * (every scope of the requirement with the endpoint's own, for one step-up), else
   * `undefined`. An `any` requirement names all of its scopes: a token with them passes.
   */
  missingScopes(
    requirement: McpScopeRequirement | undefined,
    granted: readonly string[],
  ): string[] | undefined {
    if (!requirement) return undefined;
    const satisfied =
      'any' in requirement
        ? requirement.any.some((scope) => granted.includes(scope))
        : requirement.all.every((scope) => granted.includes(scope));
    if (satisfied) return undefined;
    const needed = challengeScopes(
      this.requiredScopes,
      'any' in requirement ? requirement.any : requirement.all,
    );
    return needed.length > 0 ? needed : undefined;
  }

  /** A description of an operation's refusal fit for the challenge header. */
  operationRefusal(what: string, needed: readonly string[], granted: readonly string[]): string {
    return headerSafe(oauthMessages.operationScope(what, needed, granted));
  }

  private audienceFor(resource: string | undefined): string[] {
    const { audience } = this.options;
    if (audience !== undefined) return typeof audience === 'string' ? [audience] : audience;
    if (resource === undefined) {
      throw OAuthChallengeError.invalidToken(oauthMessages.stdioNeedsResource());
    }
    // `https://mcp.example.com/mcp` and `.../mcp/` name the same resource.
    const bare = comparable(resource);
    return [...new Set([resource, bare, `${bare}/`])];
  }

  private async verify(
    token: string,
    request: ResourceRequest,
    audience: readonly string[],
    metadataUrl: string | undefined,
  ): Promise<AuthInfo> {
    const { verifyToken } = this.options;
    if (verifyToken) {
      let auth: AuthInfo;
      try {
        auth = await verifyToken(token, request);
      } catch (error) {
        throw customVerifierRefusal(error);
      }
      return this.checkCustom(auth, audience, metadataUrl);
    }
    const verified =
      this.introspection && !looksLikeJwt(token)
        ? await this.introspection.verify(token, audience)
        : await this.jwt.verify(token, audience);
    return toAuthInfo(token, verified.claims, verified.audience, metadataUrl);
  }

  /** What a custom verifier returns must still be current and for this resource. */
  private checkCustom(
    auth: AuthInfo,
    audience: readonly string[],
    metadataUrl: string | undefined,
  ): AuthInfo {
    if (auth === null || typeof auth !== 'object' || !Array.isArray(auth.scopes)) {
      throw OAuthChallengeError.invalidToken(
        oauthMessages.refused('the verifier returned no AuthInfo'),
      );
    }
    if (typeof auth.expiresAt === 'number' && auth.expiresAt < Date.now() / 1000) {
      throw OAuthChallengeError.invalidToken(oauthMessages.expired());
    }
    const resource = auth.resource?.toString();
    if (
      resource !== undefined &&
      !audience.some((candidate) => comparable(candidate) === comparable(resource))
    ) {
      throw OAuthChallengeError.invalidToken(oauthMessages.wrongAudience(audience));
    }
    return metadataUrl && auth.resourceMetadataUrl === undefined
      ? { ...auth, resourceMetadataUrl: metadataUrl }
      : auth;
  }
}
