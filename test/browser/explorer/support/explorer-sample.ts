// The built sample (dist-sample/main.js) as `npm start` runs it, one process per spec file:
// the explorer is served by the library the sample imports from dist/, with the page built
// into dist/explorer-ui/ (npm test builds all three first).
import { requireBuilt } from '../../../transports/stdio/stdio-process.js';
import { SampleInstances, type SampleInstance } from '../../../support/sample-instances.js';

/** The explorer's route on the sample: `<endpoint path>/explorer`. */
export const EXPLORER_PATH = '/mcp/explorer';

export interface ExplorerSample {
  readonly instance: SampleInstance;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** `http://127.0.0.1:<port>/mcp/explorer` */
  readonly explorerUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the built sample on a free port with `env` added to the test's environment
 * (`NODE_ENV=production`, `SAMPLE_OAUTH_ISSUER`...); resolves once it listens.
 */
export async function startExplorerSample(
  name: string,
  env: Record<string, string> = {},
): Promise<ExplorerSample> {
  requireBuilt('dist-sample/main.js', 'dist/index.js', 'dist/explorer-ui/assets/explorer.js');
  const instances = new SampleInstances();
  try {
    const instance = await instances.start(name, env);
    return {
      instance,
      origin: instance.origin,
      explorerUrl: `${instance.origin}${EXPLORER_PATH}`,
      stop: () => instances.stopAll(),
    };
  } catch (error) {
    await instances.stopAll();
    throw error;
  }
}
