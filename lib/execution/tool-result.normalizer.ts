import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import { instanceToPlain } from 'class-transformer';

const CONTENT_FIELDS: Record<ContentBlock['type'], readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: ['resource'],
};

/** Whether a value is an MCP content block (text, image, audio, resource link, resource). */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (typeof value !== 'object' || value === null) return false;
  const fields = CONTENT_FIELDS[(value as { type?: unknown }).type as ContentBlock['type']];
  return fields !== undefined && fields.every((field) => field in value);
}

function isCallToolResult(value: object): value is CallToolResult {
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every(isContentBlock) &&
    Object.keys(value).every((key) => CALL_TOOL_RESULT_KEYS.has(key))
  );
}

const CALL_TOOL_RESULT_KEYS = new Set(['content', 'structuredContent', 'isError', '_meta']);

/**
 * Turns what a tool method returned into a `tools/call` result:
 * - a string, number or boolean → one text content;
 * - an MCP content block, a list of them, or a whole `CallToolResult` → passed through;
 * - any other object or array → JSON text plus `structuredContent`, serialised the way Nest
 *   serialises responses (`instanceToPlain`, so `@Exclude()` fields never leak);
 * - `undefined` or `null` → no content.
 *
 * The era-specific wire shape (for example wrapping a non-object `structuredContent` for
 * 2025 clients) is applied afterwards by the SDK's `projectCallToolResult`.
 */
export function normalizeToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return { content: [{ type: 'text', text: String(value) }] };
  }
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) {
    return { content: value };
  }
  if (typeof value === 'object' && isCallToolResult(value)) return value;
  const structured = instanceToPlain(value) as Record<string, unknown>;
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}
