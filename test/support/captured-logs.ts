import type { LoggerService, LogLevel } from '@nestjs/common';
import { afterAll, afterEach } from 'vitest';

/** One line the app logged, as Nest's logger received it. */
export interface CapturedEntry {
  level: LogLevel;
  context: string | undefined;
  message: string;
  stack: string | undefined;
}

const ERROR_LEVELS: readonly LogLevel[] = ['error', 'fatal'];

const textOf = (entry: CapturedEntry) =>
  [`[${entry.context ?? ''}] ${entry.message}`, entry.stack].filter(Boolean).join('\n');

const matches = (text: string, fragment: string | RegExp) =>
  typeof fragment === 'string' ? text.includes(fragment) : fragment.test(text);

/**
 * A Nest `LoggerService` that records what the app logs instead of printing it, so a test
 * that makes the app fail on purpose can assert the log (the detail goes there, never to
 * the client) without filling the test output with stack traces.
 *
 * Give it to the app under test: `startApp(module, { logger: logs })`,
 * `Test.createTestingModule(...).setLogger(logs)` or `app.useLogger(logs)`. Nest's logger is
 * one per process, so the app started last receives the lines.
 */
export class CapturedLogs implements LoggerService {
  readonly entries: CapturedEntry[] = [];
  private readonly asserted = new Set<CapturedEntry>();

  log(message: unknown, ...params: unknown[]) {
    this.record('log', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.record('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.record('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.record('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.record('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]) {
    this.record('fatal', message, params);
  }

  /** Every `error` and `fatal` entry, asserted or not. */
  errors(): CapturedEntry[] {
    return this.entries.filter((entry) => ERROR_LEVELS.includes(entry.level));
  }

  warnings(): CapturedEntry[] {
    return this.entries.filter((entry) => entry.level === 'warn');
  }

  /** The messages logged at `level`, with `context` when given (such as `'McpExplorer'`). */
  messages(level: LogLevel, context?: string): string[] {
    return this.entries
      .filter(
        (entry) => entry.level === level && (context === undefined || entry.context === context),
      )
      .map((entry) => entry.message);
  }

  /** The error entries no test has claimed with {@link expectError}. */
  unasserted(): CapturedEntry[] {
    return this.errors().filter((entry) => !this.asserted.has(entry));
  }

  /**
   * Claims the first error entry not claimed yet whose text (`[context] message`, then the
   * stack) contains every fragment, and returns it; fails, listing what was logged, if
   * there is none. A claimed entry counts as expected.
   */
  expectError(...fragments: Array<string | RegExp>): CapturedEntry {
    const entry = this.unasserted().find((candidate) =>
      fragments.every((fragment) => matches(textOf(candidate), fragment)),
    );
    if (!entry)
      throw new Error(
        `No logged error contains ${fragments.map(String).join(' and ')}.\n` +
          `Errors not claimed yet:\n${listEntries(this.unasserted())}`,
      );
    this.asserted.add(entry);
    return entry;
  }

  /**
   * Fails if an error was logged that no test claimed, showing it in full, then forgets
   * every entry. {@link captureLogs} calls it after each test.
   */
  verify(): void {
    const unexpected = this.unasserted();
    this.entries.length = 0;
    this.asserted.clear();
    if (unexpected.length)
      throw new Error(
        `The app logged ${unexpected.length} error(s) no test expected:\n${listEntries(unexpected)}`,
      );
  }

  private record(level: LogLevel, message: unknown, params: unknown[]) {
    const rest = [...params];
    // Nest's `Logger` passes its context last; `error` reads (message, stack?, context?).
    const last = rest.at(-1);
    const lastIsContext =
      typeof last === 'string' && (level !== 'error' || rest.length > 1 || !STACK.test(last));
    const context = lastIsContext ? (rest.pop() as string) : undefined;
    const stackParam = level === 'error' ? rest.shift() : undefined;
    const stack =
      typeof stackParam === 'string'
        ? stackParam
        : message instanceof Error
          ? message.stack
          : undefined;
    const text = [message, ...rest]
      .filter((value) => value !== undefined)
      .map(formatValue)
      .join(' ');
    this.entries.push({ level, context, message: text, stack });
  }
}

const STACK = /\n\s+at /;

const formatValue = (value: unknown) =>
  typeof value === 'string'
    ? value
    : value instanceof Error
      ? String(value)
      : JSON.stringify(value);

const listEntries = (entries: CapturedEntry[]) =>
  entries.length ? entries.map((entry) => `- ${textOf(entry)}`).join('\n') : '(none)';

/**
 * A {@link CapturedLogs} for the surrounding `describe` (or file), checked after each test
 * and once more after the last hook: an error logged that no test claimed with
 * `expectError` fails the test and is shown in full, so a real new error is never silenced.
 */
export function captureLogs(): CapturedLogs {
  const logs = new CapturedLogs();
  afterEach(() => logs.verify());
  // Registered first, so it runs after the describe's own afterAll hooks (app.close()).
  afterAll(() => logs.verify());
  return logs;
}

/** The 8-hex-digit reference a masked error quotes to the client ("reference 1a2b3c4d"). */
export function referenceIn(text: string): string {
  const found = /\breference ([0-9a-f]{8})\b/.exec(text);
  if (!found) throw new Error(`No error reference in: ${text}`);
  return found[1]!;
}
