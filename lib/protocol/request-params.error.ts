import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** One problem the SDK's schema check found, as its dump lists it. */
interface SchemaIssue {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

const isIssue = (value: unknown): value is SchemaIssue =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as SchemaIssue).path) &&
  typeof (value as SchemaIssue).message === 'string';

/**
 * The issues a message ends with, when it ends with the SDK's dump of a failed schema check
 * (the JSON array of zod issues that `String(zodError)` gives): `undefined` otherwise.
 */
function dumpedIssues(message: string): SchemaIssue[] | undefined {
  const start = message.indexOf('[');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(message.slice(start)) as unknown;
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `params.cursor: expected string, received number`, one issue after the other. */
function describe(issues: readonly SchemaIssue[]): string {
  return issues
    .map(({ path, message }) => {
      const what = message.replace(/^Invalid input: /, '');
      return path.length > 0 ? `${path.join('.')}: ${what}` : what;
    })
    .join('; ');
}

/**
 * A request whose params do not match its method's schema is answered `-32602 Invalid
 * params` (JSON-RPC 2.0, section 5.1 "Error object", which MCP's base protocol adopts),
 * with a message a client can read. The check is the SDK's: it parses every
 * spec request against the revision's schema before the handler runs. But a handler
 * registered without schemas gets a failed parse as a plain `Error` whose message is the
 * zod issues' JSON (which the protocol layer answers `-32603`), and `tools/call` gets
 * `-32602` with that JSON after "Invalid tools/call request: ". This turns both into
 * `-32602` naming each path and problem; any other error is returned as it is.
 */
export function asInvalidParams(method: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const fromParse =
    error.constructor === Error ||
    (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams);
  const issues = fromParse ? dumpedIssues(error.message) : undefined;
  if (!issues) return error;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid params for ${method}: ${describe(issues)}`,
  );
}
