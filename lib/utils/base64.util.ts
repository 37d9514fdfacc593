/** Binary data as MCP carries it: bytes, or a string that is already base64. */
export type BinaryData = Uint8Array | ArrayBuffer | string;

/** MCP carries binary content as base64 text; a string is taken to be base64 already. */
export function toBase64(data: BinaryData): string {
  if (typeof data === 'string') return data;
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
