import type {
  Annotations,
  AudioContent,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  PromptMessage,
  ResourceLink,
  TextContent,
} from '@modelcontextprotocol/server';
import { toBase64, type BinaryData } from '../utils/base64.util.js';

/** Binary data for a content block: bytes, or a string that is already base64. */
export type McpBinaryData = BinaryData;

/** Hints for the client about a content block (who it is for, how important it is). */
export interface McpContentOptions {
  /** `audience` (`['user']`, `['assistant']`), `priority` (0 to 1), `lastModified`. */
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

const extras = ({ annotations, _meta }: McpContentOptions = {}) => ({
  ...(annotations && { annotations }),
  ...(_meta && { _meta }),
});

/** A content block, a string being a text block. */
const asBlock = (item: ContentBlock | string): ContentBlock =>
  typeof item === 'string' ? textContent(item) : item;

/**
 * A text content block.
 * @example return contentList(textContent('Found 3 products'), imageContent(chart, 'image/png'));
 * @publicApi
 */
export function textContent(text: string, options?: McpContentOptions): TextContent {
  return { type: 'text', text, ...extras(options) };
}

/**
 * An image for the model or the user, from bytes (a `Buffer` is a `Uint8Array`) or
 * base64 text.
 * @example return imageContent(await sharp(input).png().toBuffer(), 'image/png');
 * @publicApi
 */
export function imageContent(
  data: McpBinaryData,
  mimeType: string,
  options?: McpContentOptions,
): ImageContent {
  return { type: 'image', data: toBase64(data), mimeType, ...extras(options) };
}

/**
 * An audio clip, from bytes or base64 text.
 * @example return audioContent(wavBytes, 'audio/wav');
 * @publicApi
 */
export function audioContent(
  data: McpBinaryData,
  mimeType: string,
  options?: McpContentOptions,
): AudioContent {
  return { type: 'audio', data: toBase64(data), mimeType, ...extras(options) };
}

/** What a resource link says about the resource it points to. */
export interface McpResourceLinkOptions extends McpContentOptions {
  title?: string;
  description?: string;
  mimeType?: string;
  /** The size in bytes, if known. */
  size?: number;
}

/**
 * A link to a resource the client can read (or subscribe to) later, instead of its
 * contents: right for large files and for resources that change.
 * @example return resourceLink('file:///reports/2026-q3.pdf', 'Q3 report', { mimeType: 'application/pdf' });
 * @publicApi
 */
export function resourceLink(
  uri: string,
  name: string,
  { annotations, _meta, ...details }: McpResourceLinkOptions = {},
): ResourceLink {
  return { type: 'resource_link', uri, name, ...details, ...extras({ annotations, _meta }) };
}

/** The contents of an embedded resource: text, or binary data. */
export type McpEmbeddedContents =
  { text: string; mimeType?: string } | { blob: McpBinaryData; mimeType?: string };

/**
 * A resource whose contents travel inside the result (a generated file, a document
 * excerpt), with the URI that names it.
 * @example return embeddedResource('report://42.csv', { text: csv, mimeType: 'text/csv' });
 * @publicApi
 */
export function embeddedResource(
  uri: string,
  contents: McpEmbeddedContents,
  options?: McpContentOptions,
): EmbeddedResource {
  const { mimeType } = contents;
  const resource = {
    uri,
    ...('text' in contents ? { text: contents.text } : { blob: toBase64(contents.blob) }),
    ...(mimeType && { mimeType }),
  };
  return { type: 'resource', resource, ...extras(options) };
}

/**
 * A tool result made of several content blocks of any kind, in order; a string is a text
 * block. Spread it to add data for clients: `{ ...contentList(...), structuredContent }`
 * (a tool that declares `output` must add it).
 * @example return contentList('Here is the chart:', imageContent(png, 'image/png'));
 * @publicApi
 */
export function contentList(...items: Array<ContentBlock | string>): CallToolResult {
  return { content: items.map(asBlock) };
}

/**
 * A prompt message from the user: a string becomes a text content block.
 * @example return [userMessage(imageContent(chart, 'image/png')), userMessage('Explain this chart.')];
 * @publicApi
 */
export function userMessage(content: ContentBlock | string): PromptMessage {
  return { role: 'user', content: asBlock(content) };
}

/**
 * A prompt message from the assistant (for few-shot prompts).
 * @publicApi
 */
export function assistantMessage(content: ContentBlock | string): PromptMessage {
  return { role: 'assistant', content: asBlock(content) };
}
