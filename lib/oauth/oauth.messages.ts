/**
 * What the resource server says to clients (in `error_description`, so in an HTTP header:
 * printable ASCII, no double quotes) and to the developer (warnings). Each says what to do.
 */
export const oauthMessages = {
  missingToken: () =>
    'This MCP server requires an OAuth access token in the Authorization header (Bearer); ' +
    'get one from an authorization server named in its protected resource metadata',
  tokenInQuery: () =>
    'Access tokens are accepted only in the Authorization header (Bearer), never in the ' +
    'query string: remove access_token from the URL',
  malformedHeader: () =>
    "The Authorization header must be 'Bearer <access token>' with exactly one token",
  notAJwt: () =>
    'The access token is not a JWT, and this server verifies only JWT access tokens ' +
    '(RFC 9068); opaque tokens need token introspection on the server',
  algorithmRefused: (alg: string, allowed: readonly string[]) =>
    `The access token is signed with ${alg}, which this server does not accept ` +
    `(it accepts ${allowed.join(', ')})`,
  typeRefused: (typ: string, allowed: readonly string[]) =>
    `The token has typ ${typ}, which is not an access token type this server accepts ` +
    `(${allowed.join(', ')}); send an access token, not an ID token`,
  untrustedIssuer: (issuer: string, trusted: readonly string[]) =>
    `The access token was issued by ${issuer || 'no issuer'}, which this server does not ` +
    `trust (it trusts ${trusted.join(', ')})`,
  expired: () => 'The access token has expired: get a new one',
  notYetValid: () => 'The access token is not valid yet (nbf is in the future)',
  wrongAudience: (audience: readonly string[]) =>
    `The access token was not issued for this resource: its aud must name ` +
    `${[...new Set(audience.map((value) => value.replace(/\/$/, '')))].join(' or ')} ` +
    '(request the token with this resource as the resource parameter, RFC 8707)',
  noExpiry: () => 'The access token has no exp claim; this server accepts only tokens that expire',
  badSignature: () => 'The access token signature does not verify',
  unknownKey: () =>
    "No key of the authorization server's JWKS matches the token (kid); get a new token",
  invalidClaims: (detail: string) => `The access token claims are invalid: ${detail}`,
  inactive: () => 'The access token is not active (expired, revoked or unknown): get a new one',
  refused: (detail: string) => `The access token was refused: ${detail}`,
  refusedByApp: () =>
    "The access token was refused by this server's authentication: get a new one or use another account",
  insufficientScope: (needed: readonly string[], granted: readonly string[]) =>
    `This request needs the scope(s) ${needed.join(' ')}; the token has ` +
    `${granted.length > 0 ? granted.join(' ') : 'none'}: request a token with them`,
  operationScope: (what: string, needed: readonly string[], granted: readonly string[]) =>
    `The ${what} needs the scope(s) ${needed.join(' ')}; the token has ` +
    `${granted.length > 0 ? granted.join(' ') : 'none'}: request a token with them`,
  verifierUnavailable: () =>
    'The access token could not be verified now (the authorization server could not be ' +
    'reached); retry later',
  /** For the developer: the resource is derived from requests to a host of allowedHosts. */
  derivedResource: (resource: string) =>
    `auth.resource is not set: this MCP server derives its resource URL from the request ` +
    `(${resource}), whose host is one of http.allowedHosts. Set auth.resource to its public ` +
    `URL in production: tokens name it in aud.`,
  /** For the client, in a 403: its request names a host the resource cannot be derived from. */
  unservedHost: (host: string, allowed: readonly string[]) =>
    `This MCP server does not serve the host ${host || '(none)'}: its resource URL, which ` +
    `access tokens name, is derived only from the hosts ${allowed.join(', ') || '(none)'}. ` +
    'Connect to one of them (the server sets auth.resource or lists its hosts in http.allowedHosts)',
  /** For the developer: the introspection endpoint answered with an error status. */
  introspectionUnavailable: (
    endpoint: string,
    status: number,
    retryAfterSeconds: number | undefined,
  ) =>
    `The introspection endpoint ${endpoint} answered HTTP ${status}; opaque tokens are ` +
    `answered 503 until it answers again` +
    (retryAfterSeconds === undefined
      ? '.'
      : ` (it asked for ${retryAfterSeconds} s, during which it is not called; cached tokens are still served).`),
  /** For the developer: the introspection endpoint answered 2xx without an RFC 7662 answer. */
  introspectionMalformed: (endpoint: string) =>
    `${endpoint} answered without an RFC 7662 introspection response (a JSON object with a boolean "active")`,
  /** Appended to an outage warning when others were kept back (one warning a minute). */
  outagesHeldBack: (count: number) =>
    ` (${count} more refusal(s) for this reason since the last warning, at most one warning a minute)`,
  authorizationServerUnreachable: (issuer: string, detail: string) =>
    `The metadata of the authorization server ${issuer} could not be loaded (${detail}); ` +
    `tokens it issued are refused until it can be. Check auth.authorizationServers.`,
  stdioNeedsResource: () =>
    'A bearer token was given to the stdio transport, but auth has neither resource nor ' +
    'audience to check its aud against: set auth.resource (or auth.audience).',
  noIntrospectionEndpoint: (issuer: string) =>
    `No introspection endpoint: the metadata of ${issuer} names no ` +
    `introspection_endpoint; set auth.introspection.endpoint`,
};

/** Keeps a text within RFC 6750's `error-description` grammar (printable ASCII, no `"` or `\`). */
export const headerSafe = (text: string): string =>
  text.replaceAll(/[^\u0020-\u007E]/g, '?').replaceAll(/["\\]/g, "'");
