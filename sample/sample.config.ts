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
}

export const SAMPLE_DEFAULTS: SampleConfig = {
  host: '127.0.0.1',
  port: 3000,
  readerToken: 'reader-token',
  adminToken: 'admin-token',
};

export function loadSampleConfig(env: NodeJS.ProcessEnv = process.env): SampleConfig {
  return {
    host: env.HOST || SAMPLE_DEFAULTS.host,
    port: env.PORT ? Number(env.PORT) : SAMPLE_DEFAULTS.port,
    readerToken: env.SAMPLE_READER_TOKEN || SAMPLE_DEFAULTS.readerToken,
    adminToken: env.SAMPLE_ADMIN_TOKEN || SAMPLE_DEFAULTS.adminToken,
  };
}
