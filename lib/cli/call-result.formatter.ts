type Block = Record<string, any>;

/** A tool result as text for people: text blocks as they are (JSON pretty-printed), others summarized. */
export function formatCallResult(result: Record<string, any>): string {
  const content = (Array.isArray(result.content) ? result.content : []) as Block[];
  const parts = content.map(formatBlock);
  if (parts.length === 0 && result.structuredContent !== undefined) {
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return `${parts.join('\n')}\n`;
}

function formatBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return prettyJson(block.text);
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType ?? ''}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[link ${block.name ?? ''} ${block.uri}]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      if (typeof resource.text === 'string') return prettyJson(resource.text);
      return `[resource ${resource.uri} ${resource.mimeType ?? ''}, ${base64Bytes(resource.blob)} bytes]`;
    }
    default:
      return JSON.stringify(block);
  }
}

/** JSON text indented, other text unchanged. */
function prettyJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

function base64Bytes(data: unknown): number {
  return typeof data === 'string' ? Buffer.from(data, 'base64').length : 0;
}
