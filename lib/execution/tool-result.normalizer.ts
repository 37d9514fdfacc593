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
  const type = (value as { type?: unknown }).type;
  // Own keys only: `type: 'constructor'` must not find Object.prototype's members.
  if (typeof type !== 'string' || !Object.hasOwn(CONTENT_FIELDS, type)) return false;
  return CONTENT_FIELDS[type as ContentBlock['type']].every((field) => field in value);
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

export interface NormalizeOptions {
  /**
   * The tool declares an output (`@McpTool({ output })`): a scalar result is also sent as
   * `structuredContent`, so that it can be checked against the output schema.
   * @default false
   */
  structured?: boolean;
}

/**
 * Turns what a tool method returned into a `tools/call` result:
 * - a string, number or boolean → one text content (plus `structuredContent` when the
 *   tool declares an output);
 * - an MCP content block, a list of them, or a whole `CallToolResult` → passed through;
 * - any other object or array → JSON text plus `structuredContent`, serialised the way Nest
 *   serialises responses (`instanceToPlain`, so `@Exclude()` fields never leak, then JSON,
 *   so a `Date` becomes the ISO string the client receives);
 * - `undefined` or `null` (a method that returns nothing, such as a `delete`) → one text
 *   content, `null`, its JSON, and no `structuredContent`.
 *
 * That last rule is the same on every protocol revision (2025-11-25 and 2026-07-28 alike).
 * An empty `content` would reach a host that passes only `content` to the model as an
 * empty answer, which the model may take for a failure and retry; `null` is what the MCP
 * SDK itself writes for a `null` value (its text fallback is `JSON.stringify`). No
 * `structuredContent: null` is sent: a 2025 client would receive it wrapped as
 * `{ "result": null }`, and a tool without an `outputSchema` has no data to describe. A
 * tool that declares an output still answers an `isError` result instead, from the output
 * validator, since it returned no data.
 *
 * The era-specific wire shape (for example wrapping a non-object `structuredContent` for
 * 2025 clients) is applied afterwards by the SDK's `projectCallToolResult`.
 */
export function normalizeToolResult(
  value: unknown,
  { structured = false }: NormalizeOptions = {},
): CallToolResult {
  if (value === undefined || value === null) return { content: [{ type: 'text', text: 'null' }] };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const text = { content: [{ type: 'text' as const, text: String(value) }] };
    return structured ? { ...text, structuredContent: value } : text;
  }
  if (typeof value === 'bigint') return { content: [{ type: 'text', text: String(value) }] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) {
    return { content: value };
  }
  if (typeof value === 'object' && isCallToolResult(value)) return value;
  const text = JSON.stringify(instanceToPlain(value));
  return {
    content: [{ type: 'text', text }],
    // What the client will parse, exactly: the output check must see the same value.
    structuredContent: JSON.parse(text) as unknown,
  };
}
