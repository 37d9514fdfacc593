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
  /**
   * Several instances on one Redis (docs/scale-out.md), on when `SAMPLE_REDIS_URL` is set:
   * changes reach the clients of every instance, tasks are shared, and `reindex_catalog`
   * runs on a BullMQ queue, on whichever instance takes it.
   */
  readonly scaleOut?: SampleScaleOutConfig;
}

export interface SampleScaleOutConfig {
  /** `SAMPLE_REDIS_URL`: the Redis every instance shares (`redis://127.0.0.1:6379`). */
  readonly redisUrl: string;
  /**
   * `SAMPLE_STATE_SECRET`: the key that signs the state of multi round-trip calls, the same
   * on every instance (a state minted by one is verified by another); 32 bytes or more.
   * Required with `SAMPLE_REDIS_URL`.
   */
  readonly stateSecret: string;
  /**
   * `SAMPLE_INSTANCE_ID`: this instance's name in the logs and at the start of the 2025
   * session ids it opens. Without it, 8 random hex digits.
   */
  readonly instanceId?: string;
  /**
   * `SAMPLE_TASK_LOCK_MS`: how long the instance running a task may go silent before the
   * task is given up (it then ends failed one to two of these later). Without it, the
   * library's 30 s; the tests set a second or two, to see a killed instance quickly.
   */
  readonly taskLockMs?: number;
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
  let config: SampleConfig = {
    host: env.HOST || SAMPLE_DEFAULTS.host,
    port: env.PORT ? Number(env.PORT) : SAMPLE_DEFAULTS.port,
    readerToken: env.SAMPLE_READER_TOKEN || SAMPLE_DEFAULTS.readerToken,
    adminToken: env.SAMPLE_ADMIN_TOKEN || SAMPLE_DEFAULTS.adminToken,
  };
  const scaleOut = scaleOutOf(env);
  if (scaleOut) config = { ...config, scaleOut };
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

/** The Redis settings, when `SAMPLE_REDIS_URL` is set; a missing secret stops the bootstrap. */
function scaleOutOf(env: NodeJS.ProcessEnv): SampleScaleOutConfig | undefined {
  if (!env.SAMPLE_REDIS_URL) return undefined;
  const redisUrl = env.SAMPLE_REDIS_URL;
  if (!URL.canParse(redisUrl) || !/^rediss?:$/.test(new URL(redisUrl).protocol)) {
    throw new Error(
      `SAMPLE_REDIS_URL must be a redis:// URL such as redis://127.0.0.1:6379, not "${redisUrl}"`,
    );
  }
  const stateSecret = env.SAMPLE_STATE_SECRET;
  if (!stateSecret || Buffer.byteLength(stateSecret) < 32) {
    throw new Error(
      `SAMPLE_REDIS_URL needs SAMPLE_STATE_SECRET: set it to the same random secret of 32 ` +
        `bytes or more on every instance (openssl rand -hex 32)`,
    );
  }
  const lock = env.SAMPLE_TASK_LOCK_MS;
  if (lock !== undefined && lock !== '' && !(Number.isInteger(Number(lock)) && Number(lock) > 0)) {
    throw new Error(
      `SAMPLE_TASK_LOCK_MS must be a number of milliseconds such as 30000, not "${lock}"`,
    );
  }
  return {
    redisUrl,
    stateSecret,
    instanceId: env.SAMPLE_INSTANCE_ID || undefined,
    taskLockMs: lock ? Number(lock) : undefined,
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
