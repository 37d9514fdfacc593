import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { PUBLIC_CLIENT } from './authorization-server.js';

/** A `WWW-Authenticate` header, read: its scheme and its parameters. */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Reads one challenge (`Bearer a="1", b="2"`); fails when there is no header. */
export function challengeOf(header: string | string[] | null | undefined): Challenge {
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (!value) throw new Error('The response has no WWW-Authenticate header');
  const [scheme = '', ...rest] = value.split(' ');
  const params: Record<string, string> = {};
  for (const [, name, quoted, bare] of rest.join(' ').matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]+))/g))
    params[name!] = quoted ?? bare!;
  return { scheme, params };
}

/** One HTTP exchange a client made, as {@link recordingFetch} saw it. */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  /** The form body of a token request (grant_type, scope, resource...). */
  form?: Record<string, string>;
}

/** A `fetch` that records every exchange, for asserting the path a client's OAuth flow took. */
export function recordingFetch(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const recorder = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const body = init?.body;
    exchanges.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      url,
      status: response.status,
      ...(body instanceof URLSearchParams ? { form: Object.fromEntries(body) } : {}),
    });
    return response;
  };
  return { fetch: recorder as typeof fetch, exchanges };
}

/**
 * What an interactive MCP client keeps (an IDE, a desktop app): an OAuth client for the
 * authorization code with PKCE that registers itself (RFC 7591) and hands the authorization
 * URL to the user agent; the test plays the user agent with `authorize()` of the test
 * authorization server, then calls `transport.finishAuth()`.
 */
export class InteractiveOAuthClient implements OAuthClientProvider {
  /** The last URL the client sent the user agent to. */
  authorizationUrl: URL | undefined;
  registered: StoredOAuthClientInformation | undefined;
  private saved: StoredOAuthTokens | undefined;
  private verifier = '';
  private discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly name = 'catalog e2e desktop') {}

  get redirectUrl() {
    return PUBLIC_CLIENT.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [PUBLIC_CLIENT.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.registered;
  }
  saveClientInformation(information: StoredOAuthClientInformation) {
    this.registered = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}
