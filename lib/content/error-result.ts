import type { CallToolResult } from '@modelcontextprotocol/server';

/** An `isError` result with one text content. */
export function errorResult(
  text: string,
  structuredContent?: Record<string, unknown>,
): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    ...(structuredContent && { structuredContent }),
    isError: true,
  };
}
