import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The JSON-RPC error for a tool, prompt or template that does not exist: `-32602` with the
 * list method to call. Completion answers the same for one the caller's guards hide, so a
 * caller learns nothing of what it may not see.
 */
export const unknownEntry = (what: string, name: string, listMethod: string) =>
  new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown ${what} "${name}". Call ${listMethod} to see the ${what}s this server offers.`,
  );
