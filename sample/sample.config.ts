/**
 * The sample's settings. Every value can be set through the environment; the defaults are
 * for a local run, so `npm start` works with no setup.
 */
export interface SampleConfig {
  /** `HOST`: the interface to listen on. Loopback by default, so nothing is exposed. */
  readonly host: string;
  /** `PORT`: the HTTP port (`0` picks a free one). */
  readonly port: number;
  /** `SAMPLE_READER_TOKEN`: a bearer token that may search and read products. */
  readonly readerToken: string;
  /** `SAMPLE_ADMIN_TOKEN`: a bearer token that may also create and delete products. */
  readonly adminToken: string;
  /**
   * The OAuth mode, on when `SAMPLE_OAUTH_ISSUER` is set: the MCP endpoint then accepts the
   * access tokens of that authorization server instead of the two static tokens.
   */
  readonly oauth?: SampleOAuthConfig;
}

export interface SampleOAuthConfig {
  /**
   * `SAMPLE_OAUTH_ISSUER`: the issuer URL of the authorization server, exactly as its
   * tokens name it in `iss` (`https://example.eu.auth0.com/`,
   * `https://sso.example.com/realms/shop`, `https://login.microsoftonline.com/<tenant>/v2.0`).
   */
  readonly issuer: string;
  /**
   * `SAMPLE_OAUTH_RESOURCE`: the URL clients connect to, which tokens must name as their
   * audience. Without it, the sample's own `http://HOST:PORT/mcp` (with `PORT=0`, the URL
   * each request was sent to).
   */
  readonly resource?: string;
  /**
   * `SAMPLE_OAUTH_AUDIENCE`: the `aud` tokens carry, when the authorization server does not
   * put the resource there (Entra ID puts the API's application id).
   */
  readonly audience?: string;
}

export const SAMPLE_DEFAULTS: SampleConfig = {
  host: '127.0.0.1',
  port: 3000,
  readerToken: 'reader-token',
  adminToken: 'admin-token',
};

export function loadSampleConfig(env: NodeJS.ProcessEnv = process.env): SampleConfig {
  const config: SampleConfig = {
    host: env.HOST || SAMPLE_DEFAULTS.host,
    port: env.PORT ? Number(env.PORT) : SAMPLE_DEFAULTS.port,
    readerToken: env.SAMPLE_READER_TOKEN || SAMPLE_DEFAULTS.readerToken,
    adminToken: env.SAMPLE_ADMIN_TOKEN || SAMPLE_DEFAULTS.adminToken,
  };
  if (!env.SAMPLE_OAUTH_ISSUER) return config;
  return {
    ...config,
    oauth: {
      issuer: httpUrl('SAMPLE_OAUTH_ISSUER', env.SAMPLE_OAUTH_ISSUER),
      resource: env.SAMPLE_OAUTH_RESOURCE
        ? httpUrl('SAMPLE_OAUTH_RESOURCE', env.SAMPLE_OAUTH_RESOURCE)
        : undefined,
      audience: env.SAMPLE_OAUTH_AUDIENCE || undefined,
    },
  };
}

/** The value itself (an issuer must match `iss` character for character), once it is checked. */
function httpUrl(name: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(
      `${name} must be an http(s) URL such as https://sso.example.com/, not "${value}"`,
    );
  }
  return value;
}
