import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { parseCliArguments, type CliArguments } from '../../lib/cli/cli.arguments.js';
import { CliUsageError } from '../../lib/cli/cli-usage.error.js';
import { ROOT } from '../transports/stdio/stdio-process.js';

/** The built binary (`npm test` builds it first). */
export const CLI = 'dist/cli/main.js';

/** What one run of the binary printed, and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** The working directory. @default the repository */
  cwd?: string;
  /** Variables for this run; they win over `unset`. */
  env?: Record<string, string>;
  /** The variables of the test's environment the run must not see. @default /^NESTJS_MCP_/ */
  unset?: RegExp;
}

/**
 * Runs the binary as a user does, in a child process: without the variables it reads
 * (`NESTJS_MCP_AUTHORIZATION`, a fixture's switches) unless `env` gives them.
 */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  const { cwd = ROOT, env = {}, unset = /^NESTJS_MCP_/ } = options;
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(environment)) if (unset.test(name)) delete environment[name];
  Object.assign(environment, env);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, CLI), ...args],
      { cwd, env: environment },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

/** A usage error: one line on stderr that says what to type, no stack, exit code 2. */
export function expectUsageError(run: CliRun, text: string): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain(text);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** What a command wrote to one of its streams, in process. */
function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

type Command = (
  args: CliArguments,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
) => Promise<number>;

/** Runs a command in process on a command line: its exit code and both streams. */
export async function runCommand(command: Command, argv: string[]): Promise<CliRun> {
  const out = sink();
  const err = sink();
  const code = await command(parseCliArguments(argv), out.stream, err.stream);
  return { code, stdout: out.text(), stderr: err.text() };
}

/** The message of the `CliUsageError` that `run` throws (the CLI prints it, exit 2). */
export function usageErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    return (error as Error).message;
  }
  throw new Error('expected a CliUsageError');
}
