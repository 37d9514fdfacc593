import type { ReadResourceResult } from '@modelcontextprotocol/server';
import { instanceToPlain } from 'class-transformer';
import { toBase64 } from '../utils/base64.util.js';

type Contents = ReadResourceResult['contents'][number];

const isResourceContents = (value: unknown): value is Contents =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Contents).uri === 'string' &&
  (typeof (value as { text?: unknown }).text === 'string' ||
    typeof (value as { blob?: unknown }).blob === 'string');

const isBytes = (value: unknown): value is Uint8Array | ArrayBuffer =>
  value instanceof Uint8Array || value instanceof ArrayBuffer;

/**
 * Turns what a resource method returned into a `resources/read` result for `uri`:
 * - a string → text contents (`mimeType` of the resource, else `text/plain`);
 * - a `Buffer`/`Uint8Array`/`ArrayBuffer` → binary contents, base64-encoded (`mimeType`
 *   of the resource, else `application/octet-stream`);
 * - resource contents (`{ uri, text }` / `{ uri, blob }`), a list of them, or a whole
 *   `ReadResourceResult` → passed through;
 * - any other value → JSON text (`application/json`), serialised as Nest serialises
 *   responses (`instanceToPlain`, so `@Exclude()` fields never leak).
 * `undefined` and `null` mean "nothing there": the caller answers "resource not found".
 */
export function normalizeResourceResult(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  }
  if (isBytes(value)) {
    return {
      contents: [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: toBase64(value) }],
    };
  }
  if (isResourceContents(value)) return { contents: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isResourceContents)) {
    return { contents: value };
  }
  if (
    typeof value === 'object' &&
    Array.isArray((value as ReadResourceResult).contents) &&
    (value as ReadResourceResult).contents.every(isResourceContents)
  ) {
    const result = value as ReadResourceResult;
    return result.contents.length > 0 ? result : undefined;
  }
  const text = JSON.stringify(instanceToPlain(value));
  return { contents: [{ uri, mimeType: mimeType ?? 'application/json', text }] };
}
