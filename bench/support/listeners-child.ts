import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ListenersCommand, ListenersReply } from './listeners-ipc.js';

const REGISTER_HOOK = new URL('./register.js', import.meta.url).href;
const START_TIMEOUT_MS = 60_000;

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
/** A command without its id, as the parent writes it. */
type Command = WithoutId<ListenersCommand>;

/**
 * A process of the listeners bench (a server or the clients), driven over IPC. Each holds
 * 10,000 sockets, more than the usual soft limit of open files: it is started through
 * `sh -c 'ulimit -n <hard limit>'`, which raises its own limit only, never the machine's.
 */
export class ListenersChild {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: ListenersReply) => void>();
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number | undefined,
  ) {
    child.on('message', (message: ListenersReply) => {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    });
    child.on('exit', () => {
      this.exited = true;
      for (const resolve of this.pending.values()) {
        resolve({ id: -1, ok: false, error: 'the process exited' });
      }
      this.pending.clear();
    });
  }

  /** Starts `script` (relative to this folder) and waits for its `ready` message. */
  static start(script: string, arg: unknown): Promise<ListenersChild> {
    const file = fileURLToPath(new URL(script, import.meta.url));
    const child = spawn(
      'sh',
      [
        '-c',
        'ulimit -n "$(ulimit -Hn)" && exec "$0" "$@"',
        process.execPath,
        '--expose-gc',
        '--import',
        REGISTER_HOOK,
        file,
        JSON.stringify(arg),
      ],
      {
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`${script} did not start in time`));
      }, START_TIMEOUT_MS);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with code ${code}`));
      });
      child.once('message', (message: { type: 'ready'; port?: number }) => {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(new ListenersChild(child, message.port));
      });
    });
  }

  command(command: Command, timeoutMs = 60_000): Promise<ListenersReply & { ok: true }> {
    if (this.exited) return Promise.reject(new Error('the process has exited'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to "${command.command}" in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.ok) resolve(reply);
        else reject(new Error(`"${command.command}" failed: ${reply.error}`));
      });
      this.child.send({ ...command, id });
    });
  }

  /** Asks the process to close and waits for it to exit (killed if it hangs). */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.command({ command: 'close' }, 30_000).catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Answers the parent's commands in a child process, each reply tagged with its id. */
export function answerCommands(
  handle: (command: ListenersCommand) => Promise<Omit<ListenersReply & { ok: true }, 'id' | 'ok'>>,
): void {
  process.on('message', async (command: ListenersCommand) => {
    let reply: ListenersReply;
    try {
      reply = { id: command.id, ok: true, ...(await handle(command)) };
    } catch (error) {
      reply = { id: command.id, ok: false, error: String((error as Error)?.stack ?? error) };
    }
    process.send?.(reply, undefined, {}, () => {
      if (command.command === 'close') process.exit(0);
    });
  });
}
