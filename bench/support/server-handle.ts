import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type {
  AllocationReading,
  CpuReading,
  MemoryReading,
  ReadyMessage,
  ServerCommand,
  ServerReply,
  ServerSpec,
  TelemetryReading,
} from './ipc.js';

const SERVER_SCRIPT = fileURLToPath(new URL('../server.process.js', import.meta.url));
const REGISTER_HOOK = new URL('./register.js', import.meta.url).href;
const START_TIMEOUT_MS = 60_000;
const COMMAND_TIMEOUT_MS = 30_000;

type CommandName = ServerCommand['command'];

/** The bench runner's side of one server process (bench/server.process.ts). */
export class ServerHandle {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: ServerReply) => void>();
  private exited = false;

  private constructor(
    readonly spec: ServerSpec,
    private readonly child: ChildProcess,
    readonly ready: ReadyMessage,
  ) {
    child.on('message', (message: ServerReply) => {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    });
    child.on('exit', () => {
      this.exited = true;
      for (const resolve of this.pending.values())
        resolve({ id: -1, ok: false, error: 'server process exited' });
      this.pending.clear();
    });
  }

  static start(spec: ServerSpec, extraNodeArgs: string[] = []): Promise<ServerHandle> {
    const child = fork(SERVER_SCRIPT, [JSON.stringify(spec)], {
      execArgv: ['--expose-gc', '--import', REGISTER_HOOK, ...extraNodeArgs],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        ...(spec.kind === 'mcp' &&
          spec.telemetry === 'absent' && { BENCH_HIDE_OPENTELEMETRY: '1' }),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`server ${JSON.stringify(spec)} did not start in time`));
      }, START_TIMEOUT_MS);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server ${JSON.stringify(spec)} exited with code ${code}`));
      });
      child.once('message', (message: ReadyMessage) => {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(new ServerHandle(spec, child, message));
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.ready.port}`;
  }

  async cpuStart(): Promise<void> {
    await this.command('cpu-start');
  }

  async cpuStop(): Promise<CpuReading> {
    return (await this.command('cpu-stop')).cpu!;
  }

  async allocationsStart(): Promise<void> {
    await this.command('alloc-start');
  }

  async allocationsStop(): Promise<AllocationReading> {
    return (await this.command('alloc-stop')).allocations!;
  }

  async memory(): Promise<MemoryReading> {
    return (await this.command('memory')).memory!;
  }

  /** What the server's OpenTelemetry SDK exported so far (bench/apps/telemetry.setup.ts). */
  async telemetry(): Promise<TelemetryReading> {
    return (await this.command('telemetry')).telemetry!;
  }

  /** Closes the app and waits for the process to end (killed if it hangs). */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.command('close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private command(command: CommandName): Promise<ServerReply & { ok: true }> {
    if (this.exited) return Promise.reject(new Error('server process has exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`server did not answer "${command}" in time`));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.ok) resolve(reply);
        else reject(new Error(`server failed "${command}": ${reply.error}`));
      });
      this.child.send({ id, command } satisfies ServerCommand);
    });
  }
}
