import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SoakCommand, SoakSample, SoakServerMessage } from './soak-ipc.js';

const SERVER_SCRIPT = fileURLToPath(new URL('./soak-server.process.js', import.meta.url));
const REGISTER_HOOK = new URL('./register.js', import.meta.url).href;
const COMMAND_TIMEOUT_MS = 30_000;

/** The driver's side of the soak's server process (soak-server.process.ts). */
export class SoakServerHandle {
  /** Every sample the server sent, periodic and asked for, in order. */
  readonly samples: SoakSample[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (message: SoakServerMessage) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (message: SoakServerMessage) => {
      if (message.type === 'sample') this.samples.push(message.sample);
      if ('id' in message && message.id !== undefined) {
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      }
    });
  }

  static start(onPeriodic: (sample: SoakSample) => void): Promise<SoakServerHandle> {
    const child = fork(SERVER_SCRIPT, [], {
      execArgv: ['--expose-gc', '--import', REGISTER_HOOK],
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the soak server exited with code ${code}`)));
      child.once('message', (message: SoakServerMessage) => {
        if (message.type !== 'ready') return reject(new Error('the soak server did not start'));
        child.removeAllListeners('exit');
        const handle = new SoakServerHandle(child, message.port);
        child.on('message', (next: SoakServerMessage) => {
          if (next.type === 'sample' && next.sample.kind === 'periodic') onPeriodic(next.sample);
        });
        resolve(handle);
      });
    });
  }

  /** A sample taken now (a mark of the run: start, end of warm-up, end of load, settled). */
  async mark(label: string): Promise<SoakSample> {
    const reply = await this.command({ id: this.nextId++, command: 'sample', label });
    if (reply.type !== 'sample') throw new Error('the soak server sent no sample');
    return reply.sample;
  }

  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.command({ id: this.nextId++, command: 'close' }).catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private command(command: SoakCommand): Promise<SoakServerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(command.id);
        reject(new Error(`the soak server did not answer "${command.command}" in time`));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(command.id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      this.child.send(command);
    });
  }
}
