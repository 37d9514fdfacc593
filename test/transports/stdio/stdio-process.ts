import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root: built files are run from there, as a user would. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Fails with what to run when the tests meet no build (npm test builds first, in pretest). */
export function requireBuilt(...files: string[]): void {
  const missing = files.filter((file) => !existsSync(new URL(file, `file://${ROOT}`)));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(', ')} not built: run "npm run build && npm run build:sample" (npm test does it first).`,
    );
  }
}

/** A spawned stdio MCP server, driven line by line. */
export class StdioProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every line written to stdout, as written. */
  readonly stdoutLines: string[] = [];
  stderr = '';
  /** Settles with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
  private partial = '';
  private readonly waiters: Array<() => void> = [];

  constructor(args: string[], env: Record<string, string | undefined> = {}) {
    this.child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop()!;
      this.stdoutLines.push(...lines);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code) => {
        resolve(code);
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  send(message: object): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** The JSON-RPC response with this id, once it has arrived. */
  async response(id: number): Promise<Record<string, any>> {
    for (;;) {
      const found = this.stdoutLines
        .map((line) => tryParse(line))
        .find((message) => message?.id === id);
      if (found) return found;
      if (this.child.exitCode !== null) {
        throw new Error(
          `The process exited (${this.child.exitCode}) before answering ${id}: ${this.stderr}`,
        );
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Closes stdin, as a client does when it is done, and waits for the exit code. */
  async closeStdin(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export const initializeRequest = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'stdio-test', version: '1.0.0' },
  },
});

function tryParse(line: string): Record<string, any> | undefined {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
