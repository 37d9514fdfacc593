import { authResourceRequiredMessage } from '../messages/options.messages.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';
import { isOptionsObject } from './option-checks.js';

/** Issuers compare without one trailing slash (`https://tenant.auth0.com/` is common). */
const sameIssuer = (a: string, b: string): boolean => a.replace(/\/$/, '') === b.replace(/\/$/, '');

/**
 * The asymmetric JWS algorithms (RFC 7518, RFC 8037) an access token may be signed with.
 * HMAC algorithms are left out on purpose: a verifier that accepts `HS256` can be fooled
 * with a token "signed" with the authorization server's public key as the secret.
 */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

const EXAMPLE =
  "auth: { authorizationServers: ['https://auth.example.com'], resource: 'https://mcp.example.com/mcp' }";

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const parseUrl = (value: unknown): URL | undefined => {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
};

/** Plain http is for a server on this machine (development and tests) only. */
const isSecureOrLocal = (url: URL) =>
  url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every(isNonEmptyString);

function issuerProblems(servers: unknown): string[] {
  if (!Array.isArray(servers) || servers.length === 0) {
    return [
      `"auth.authorizationServers" must be a non-empty array of issuer URLs, such as ${EXAMPLE}`,
    ];
  }
  const problems: string[] = [];
  for (const [index, issuer] of servers.entries()) {
    const url = parseUrl(issuer);
    const where = `"auth.authorizationServers[${index}]"`;
    if (!url) {
      problems.push(
        `${where} must be an absolute issuer URL such as 'https://auth.example.com' (got ${JSON.stringify(issuer)})`,
      );
    } else if (!isSecureOrLocal(url)) {
      problems.push(
        `${where} must be an https URL (got ${JSON.stringify(issuer)}); plain http is accepted only for localhost and 127.0.0.1`,
      );
    } else if (url.search || url.hash) {
      problems.push(
        `${where} must be the issuer exactly as the authorization server names it, without query or fragment (got ${JSON.stringify(issuer)})`,
      );
    }
  }
  return problems;
}

function resourceProblem(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const url = parseUrl(value);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return `"auth.${name}" must be an absolute http(s) URL such as 'https://mcp.example.com/mcp' (got ${JSON.stringify(value)})`;
  }
  if (url.hash && name === 'resource') {
    return `"auth.${name}" must not have a fragment (RFC 8707): use ${JSON.stringify(String(value).split('#')[0])}`;
  }
  return undefined;
}

function introspectionProblems(introspection: unknown, servers: unknown): string[] {
  if (introspection === undefined) return [];
  if (!isOptionsObject(introspection)) {
    return [
      '"auth.introspection" must be an object such as { clientId: \'mcp-server\', clientSecret: process.env.INTROSPECTION_SECRET }',
    ];
  }
  const problems: string[] = [];
  const { endpoint, clientId, clientSecret } = introspection;
  if (!isNonEmptyString(clientId)) {
    problems.push(
      '"auth.introspection.clientId" must be the client id this server authenticates to the introspection endpoint with',
    );
  }
  if (!isNonEmptyString(clientSecret)) {
    problems.push(
      '"auth.introspection.clientSecret" must be the client secret of "auth.introspection.clientId"',
    );
  }
  if (endpoint !== undefined) {
    const url = parseUrl(endpoint);
    if (!url || !isSecureOrLocal(url)) {
      problems.push(
        `"auth.introspection.endpoint" must be an https URL (http only for localhost) (got ${JSON.stringify(endpoint)}); leave it out to use the authorization server's introspection_endpoint`,
      );
    }
  }
  const issuer = introspectionIssuerProblem(introspection.issuer, servers);
  if (issuer !== undefined) problems.push(issuer);
  const ttl = introspection.cacheTtlSeconds;
  if (ttl !== undefined && !(Number.isInteger(ttl) && (ttl as number) >= 0)) {
    problems.push(
      `"auth.introspection.cacheTtlSeconds" must be a whole number of seconds, 0 or more (got ${JSON.stringify(ttl)}); 0 asks the authorization server about every request`,
    );
  }
  return problems;
}

/**
 * An opaque token names no issuer, so it is introspected by one authorization server only
 * (never posted to the others): the only one, or the one `introspection.issuer` names.
 */
function introspectionIssuerProblem(issuer: unknown, servers: unknown): string | undefined {
  const trusted = Array.isArray(servers) ? servers.filter(isNonEmptyString) : [];
  if (issuer === undefined) {
    return trusted.length > 1
      ? `"auth.introspection.issuer" must name the authorization server whose opaque tokens are introspected (one of ${trusted.join(', ')}): a token that is not a JWT names no issuer, and is never sent to another one`
      : undefined;
  }
  if (!isNonEmptyString(issuer) || !trusted.some((server) => sameIssuer(server, issuer))) {
    return `"auth.introspection.issuer" must be one of "auth.authorizationServers" (${trusted.join(', ')}) (got ${JSON.stringify(issuer)})`;
  }
  return undefined;
}

/**
 * On the HTTP endpoint, what fixes the resource (the audience of the tokens): `auth.resource`,
 * or `http.allowedHosts`, among which a request's Host may choose. Never the request alone.
 */
export function authResourceProblems(auth: unknown, http: unknown): string[] {
  if (!isOptionsObject(auth) || auth.resource !== undefined || http === false) return [];
  const hosts = isOptionsObject(http) ? http.allowedHosts : undefined;
  return Array.isArray(hosts) && hosts.length > 0 ? [] : [authResourceRequiredMessage()];
}

function algorithmProblem(algorithms: unknown): string | undefined {
  if (algorithms === undefined) return undefined;
  if (!isStringList(algorithms) || algorithms.length === 0) {
    return `"auth.algorithms" must be a non-empty array of JWS algorithms such as ['RS256', 'ES256']`;
  }
  const refused = algorithms.filter((alg) => !DEFAULT_JWT_ALGORITHMS.includes(alg));
  return refused.length === 0
    ? undefined
    : `"auth.algorithms" may list only asymmetric algorithms (${DEFAULT_JWT_ALGORITHMS.join(', ')}); remove ${refused.join(', ')}`;
}

/**
 * The problems of the `auth` option (the endpoint as an OAuth resource server), each
 * saying what to write instead; none when it is absent.
 */
export function authOptionsProblems(auth: unknown): string[] {
  if (auth === undefined) return [];
  if (!isOptionsObject(auth)) return [`"auth" must be an object such as ${EXAMPLE}`];
  const problems = issuerProblems(auth.authorizationServers);
  const add = (problem: string | undefined) => problem !== undefined && problems.push(problem);
  add(resourceProblem('resource', auth.resource));
  const { audience } = auth;
  if (
    audience !== undefined &&
    !isNonEmptyString(audience) &&
    !(isStringList(audience) && audience.length > 0)
  ) {
    problems.push(
      `"auth.audience" must be a string or a non-empty array of strings: the "aud" a token must name (got ${JSON.stringify(audience)})`,
    );
  }
  for (const name of ['scopesSupported', 'requiredScopes', 'tokenTypes'] as const) {
    const value = auth[name];
    if (value !== undefined && !isStringList(value)) {
      problems.push(`"auth.${name}" must be an array of non-empty strings`);
    } else if (value?.some((scope) => /[\s"\\]/.test(scope)) && name !== 'tokenTypes') {
      problems.push(
        `"auth.${name}" must hold OAuth scope tokens: no spaces, quotes or backslashes (got ${JSON.stringify(value)})`,
      );
    }
  }
  if (auth.verifyToken !== undefined && typeof auth.verifyToken !== 'function') {
    problems.push(
      '"auth.verifyToken" must be a function (token, request) => Promise<AuthInfo> that throws when the token is not valid',
    );
  }
  problems.push(...introspectionProblems(auth.introspection, auth.authorizationServers));
  if (auth.resourceName !== undefined && !isNonEmptyString(auth.resourceName)) {
    problems.push('"auth.resourceName" must be a non-empty string, such as \'Catalog MCP server\'');
  }
  add(resourceProblem('resourceDocumentation', auth.resourceDocumentation));
  add(algorithmProblem(auth.algorithms));
  const tolerance = auth.clockToleranceSeconds;
  if (tolerance !== undefined && !(Number.isInteger(tolerance) && (tolerance as number) >= 0)) {
    problems.push(
      `"auth.clockToleranceSeconds" must be a whole number of seconds, 0 or more (got ${JSON.stringify(tolerance)})`,
    );
  }
  return problems;
}
