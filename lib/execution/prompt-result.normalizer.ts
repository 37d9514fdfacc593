import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/server';
import { userMessage } from '../content/mcp-content.js';
import { isContentBlock } from './tool-result.normalizer.js';

const isPromptMessage = (value: unknown): value is PromptMessage =>
  typeof value === 'object' &&
  value !== null &&
  ((value as PromptMessage).role === 'user' || (value as PromptMessage).role === 'assistant') &&
  isContentBlock((value as PromptMessage).content);

function toMessage(value: unknown, where: string): PromptMessage {
  if (typeof value === 'string' || isContentBlock(value)) return userMessage(value);
  if (isPromptMessage(value)) return value;
  throw new TypeError(
    `${where} returned a prompt message that is neither a string, a content block nor ` +
      `{ role: 'user' | 'assistant', content }.`,
  );
}

/**
 * Turns what a prompt method returned into a `prompts/get` result: a string (one user
 * message), a content block, a message, a list of those, or a whole `GetPromptResult`.
 * @throws TypeError for anything else (a programming error, reported as an internal error)
 */
export function normalizePromptResult(value: unknown, where: string): GetPromptResult {
  if (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as GetPromptResult).messages)
  ) {
    const result = value as GetPromptResult;
    return { ...result, messages: result.messages.map((message) => toMessage(message, where)) };
  }
  const items = Array.isArray(value) ? value : [value];
  return { messages: items.map((item) => toMessage(item, where)) };
}
