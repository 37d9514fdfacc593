import { ProtocolError } from '@modelcontextprotocol/client';
import { pointerOf } from './json-schema.js';

/** What a call came back with, as the page shows it. */
export type Outcome =
  | { kind: 'result'; result: Record<string, any> }
  | { kind: 'error'; code?: number; message: string; data?: unknown }
  | { kind: 'cancelled' };

/** A thrown error as an outcome: a JSON-RPC error keeps its code and data. */
export function outcomeOfError(error: unknown): Outcome {
  if (error instanceof ProtocolError) {
    return {
      kind: 'error',
      code: error.code,
      message: error.message.replace(/^MCP error -?\d+: /, ''),
      data: error.data,
    };
  }
  const candidate = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    kind: 'error',
    code: typeof candidate?.code === 'number' ? candidate.code : undefined,
    message: String(candidate?.message ?? error),
    data: candidate?.data,
  };
}

interface Issue {
  path?: unknown;
  pointer?: unknown;
  field?: unknown;
  property?: unknown;
  message?: unknown;
}

/** The field a server's issue names, as a JSON pointer: `/limit`, `limit`, `items.0.name`. */
function pointerOfIssue(issue: Issue): string | undefined {
  const where = issue.pointer ?? issue.path ?? issue.field ?? issue.property;
  if (Array.isArray(where)) return pointerOf(where as (string | number)[]);
  if (typeof where !== 'string' || where === '') return undefined;
  return where.startsWith('/') ? where : pointerOf(where.split('.'));
}

/**
 * The refusals of a call, field by field, from the details the server gave: the `issues` of
 * an invalid-arguments result, or the `issues`/`details`/`errors` of a JSON-RPC error's data.
 */
export function fieldErrorsOf(outcome: Outcome): Record<string, string> {
  let source: unknown;
  if (outcome.kind === 'result' && outcome.result.isError)
    source = outcome.result.structuredContent;
  else if (outcome.kind === 'error') source = outcome.data;
  const data = (source ?? {}) as Record<string, unknown>;
  const list = [data.issues, data.details, data.errors].find(Array.isArray) as Issue[] | undefined;
  const errors: Record<string, string> = {};
  for (const issue of list ?? []) {
    const pointer = pointerOfIssue(issue);
    if (!pointer || typeof issue.message !== 'string') continue;
    const name = pointer.slice(1).split('/').join('.');
    errors[pointer] ??= issue.message.startsWith(name)
      ? `${name}: ${issue.message.slice(name.length).trim()}`
      : `${name}: ${issue.message}`;
  }
  return errors;
}
