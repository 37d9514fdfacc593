// Several processes of the built sample (dist-sample/main.js), as replicas behind a load
// balancer would run it: each on a port of its own (PORT=0), with the environment a test
// gives (SAMPLE_REDIS_URL, SAMPLE_STATE_SECRET, ...). `npm test` builds the sample first.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { requireBuilt, ROOT } from '../transports/stdio/stdio-process.js';

const SAMPLE = 'dist-sample/main.js';
/** How long a sample may take to say where it listens (it connects to Redis first). */
const START_TIMEOUT_MS = 20_000;

export interface SampleInstance {
  /** The name the test gave it (also its `SAMPLE_INSTANCE_ID` unless the env sets one). */
  readonly name: string;
  /** Its MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** Its REST API root, `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** Settles with the exit code (or `null` after a signal) once it ended. */
  readonly exited: Promise<number | null>;
}

/** A process of the sample that ran to its end, for the bootstrap failures. */
export interface EndedSample {
  readonly code: number | null;
  readonly output: string;
}

/** A process just spawned: its output so far and its end. */
type Launched = Pick<SampleInstance, 'child' | 'output' | 'exited'>;

function launch(env: Record<string, string>): Launched {
  requireBuilt(SAMPLE, 'dist/index.js', 'dist/redis/index.js');
  const child = spawn(process.execPath, [SAMPLE], {
    cwd: ROOT,
    // NO_COLOR: the log lines the tests read carry no ANSI colours.
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', NO_COLOR: '1', ...env },
  });
  let output = '';
  const append = (chunk: string) => (output += chunk);
  child.stdout.setEncoding('utf8').on('data', append);
  child.stderr.setEncoding('utf8').on('data', append);
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output: () => output, exited };
}

/** Resolves with the endpoint the sample logs once it listens; rejects if it exits first. */
function endpointOf(name: string, { child, output, exited }: Launched): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`sample ${name} did not start in time:\n${output()}`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      const found = /MCP endpoint: (\S+)/.exec(output())?.[1];
      if (!found) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve(found);
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`sample ${name} exited with ${code} before it listened:\n${output()}`));
    });
    check();
  });
}

/** Runs the sample until it exits by itself (a bootstrap that fails), at most 20 s. */
export async function runSampleToExit(env: Record<string, string>): Promise<EndedSample> {
  const { child, output, exited } = launch(env);
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  const code = await exited;
  clearTimeout(timer);
  return { code, output: output() };
}

/**
 * The sample processes of one test file: `start()` resolves once a process logged its
 * "MCP endpoint:" line, `stopAll()` (in afterAll) ends every one still running.
 */
export class SampleInstances {
  private readonly running: Launched[] = [];

  async start(name: string, env: Record<string, string>): Promise<SampleInstance> {
    const launched = launch({ SAMPLE_INSTANCE_ID: name, ...env });
    this.running.push(launched);
    const url = new URL(await endpointOf(name, launched));
    return { name, url, origin: url.origin, ...launched };
  }

  /** SIGKILL: the process gets no chance to hand anything over, as when a machine dies. */
  async kill(instance: Launched): Promise<void> {
    if (!ended(instance)) instance.child.kill('SIGKILL');
    await instance.exited;
  }

  /** SIGTERM (the sample's shutdown hooks run), then SIGKILL for one that hangs. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.running.splice(0).map(async (instance) => {
        if (ended(instance)) return;
        instance.child.kill('SIGTERM');
        const timer = setTimeout(() => instance.child.kill('SIGKILL'), 5_000);
        await instance.exited;
        clearTimeout(timer);
      }),
    );
  }
}

const ended = ({ child }: Launched) => child.exitCode !== null || child.signalCode !== null;

/**
 * The environment of one instance among several on the Redis at `redisUrl`: the secret they
 * share, and a task lock short enough that a killed instance is noticed in seconds.
 */
export function scaleOutEnv(redisUrl: string, secret: string): Record<string, string> {
  return { SAMPLE_REDIS_URL: redisUrl, SAMPLE_STATE_SECRET: secret, SAMPLE_TASK_LOCK_MS: '1500' };
}
