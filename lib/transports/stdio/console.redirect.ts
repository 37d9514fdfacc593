import { Console } from 'node:console';

/** The `console` methods that write to stdout. `error`, `warn` and `trace` already use stderr. */
const STDOUT_METHODS = [
  'log',
  'info',
  'debug',
  'dir',
  'dirxml',
  'table',
  'group',
  'groupCollapsed',
  'count',
  'timeLog',
  'timeEnd',
] as const;

/**
 * Sends everything the global `console` would print on stdout to stderr instead, and
 * returns the function that restores it. A stray `console.log` in a tool or a library
 * would otherwise land in the MCP stream and break the client's JSON-RPC parsing.
 * (Direct `process.stdout.write` calls are not covered: they bypass `console`.)
 */
export function redirectConsoleToStderr(): () => void {
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  const saved = new Map<string, unknown>();
  const target = console as unknown as Record<string, unknown>;
  for (const method of STDOUT_METHODS) {
    saved.set(method, target[method]);
    target[method] = (toStderr[method] as (...args: unknown[]) => unknown).bind(toStderr);
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    for (const [method, original] of saved) target[method] = original;
  };
}
