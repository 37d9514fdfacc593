import {
  auth,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { ExplorerConfig } from './explorer-config.js';

type AuthConfig = NonNullable<ExplorerConfig['auth']>;
const PREFIX = 'mcp-explorer:oauth:';

const read = <T>(key: string): T | undefined => {
  const value = sessionStorage.getItem(PREFIX + key);
  return value ? (JSON.parse(value) as T) : undefined;
};
const write = (key: string, value: unknown) =>
  sessionStorage.setItem(PREFIX + key, JSON.stringify(value));

/**
 * The explorer as an OAuth public client in the browser: authorization code with PKCE, its
 * state in sessionStorage. Its client id is its Client ID Metadata Document where the
 * authorization server accepts one (the SDK checks `client_id_metadata_document_supported`),
 * else it registers dynamically.
 */
class ExplorerOAuthProvider implements OAuthClientProvider {
  constructor(private readonly config: AuthConfig) {}

  get redirectUrl() {
    return this.config.redirectUri;
  }

  // A metadata document must be served over https; on a local http run, registration it is.
  get clientMetadataUrl() {
    return this.config.clientMetadataUrl.startsWith('https://')
      ? this.config.clientMetadataUrl
      : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP explorer',
      redirect_uris: [this.config.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.config.scopes.length > 0 ? { scope: this.config.scopes.join(' ') } : {}),
    };
  }

  state() {
    const state = crypto.randomUUID();
    write('state', state);
    return state;
  }

  clientInformation() {
    return read<StoredOAuthClientInformation>('client');
  }

  saveClientInformation(information: StoredOAuthClientInformation) {
    write('client', information);
  }

  tokens() {
    return read<StoredOAuthTokens>('tokens');
  }

  saveTokens(tokens: StoredOAuthTokens) {
    write('tokens', tokens);
  }

  redirectToAuthorization(url: URL) {
    location.assign(url.href);
  }

  saveCodeVerifier(verifier: string) {
    write('verifier', verifier);
  }

  codeVerifier() {
    const verifier = read<string>('verifier');
    if (!verifier) throw new Error('The sign-in lost its PKCE verifier: sign in again');
    return verifier;
  }
}

const options = (config: AuthConfig, endpoint: string) => ({
  serverUrl: new URL(endpoint, location.href),
  resourceMetadataUrl: new URL(config.resourceMetadataUrl),
  ...(config.scopes.length > 0 ? { scope: config.scopes.join(' ') } : {}),
});

/** Starts a sign-in: the page leaves for the authorization server, or has a token already. */
export async function signIn(config: AuthConfig, endpoint: string): Promise<string | undefined> {
  sessionStorage.removeItem(PREFIX + 'tokens');
  const provider = new ExplorerOAuthProvider(config);
  const result = await auth(provider, { ...options(config, endpoint), forceReauthorization: true });
  return result === 'AUTHORIZED' ? provider.tokens()?.access_token : undefined;
}

/**
 * Finishes a sign-in on the callback route (`?code=`): exchanges the code for a token, then
 * puts the explorer's own address back in the address bar. Undefined when this is no callback.
 */
export async function finishSignIn(
  config: AuthConfig | undefined,
  endpoint: string,
): Promise<string | undefined> {
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  const error = params.get('error');
  if (!config || (!code && !error)) return undefined;
  history.replaceState(null, '', config.redirectUri.replace(/\/oauth\/callback$/, '/'));
  if (error) throw new Error(`The authorization server refused the sign-in: ${error}`);
  if (params.get('state') !== read<string>('state')) {
    throw new Error('The sign-in came back with another state than it left with: sign in again');
  }
  const provider = new ExplorerOAuthProvider(config);
  await auth(provider, {
    ...options(config, endpoint),
    authorizationCode: code!,
    ...(params.get('iss') ? { iss: params.get('iss')! } : {}),
  });
  return provider.tokens()?.access_token;
}
