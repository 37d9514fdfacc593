import { describe, expect, it } from 'vitest';
import { normalizePromptResult } from '../../lib/execution/prompt-result.normalizer.js';

const where = 'TopicPrompts.summary';
const text = (value: string) => ({ type: 'text', text: value });
const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
const link = { type: 'resource_link', uri: 'app://docs/1', name: 'doc' };
const embedded = { type: 'resource', resource: { uri: 'app://docs/1', text: 'Body' } };

describe('normalizePromptResult', () => {
  it('turns a string into one user message', () => {
    expect(normalizePromptResult('Summarise this.', where)).toEqual({
      messages: [{ role: 'user', content: text('Summarise this.') }],
    });
  });

  it('keeps an empty string as an empty user message', () => {
    expect(normalizePromptResult('', where)).toEqual({
      messages: [{ role: 'user', content: text('') }],
    });
  });

  it.each([
    ['an image', image],
    ['a resource link', link],
    ['an embedded resource', embedded],
  ])('turns %s content block into one user message', (_what, block) => {
    expect(normalizePromptResult(block, where)).toEqual({
      messages: [{ role: 'user', content: block }],
    });
  });

  it.each(['user', 'assistant'])('passes a %s message through', (role) => {
    const message = { role, content: text('Hi') };
    const result = normalizePromptResult(message, where);
    expect(result).toEqual({ messages: [message] });
    expect(result.messages[0]).toBe(message);
  });

  it('turns a list of strings, blocks and messages into messages, in order', () => {
    const answer = { role: 'assistant', content: text('Sure.') };
    expect(normalizePromptResult(['Look at this:', image, answer], where)).toEqual({
      messages: [
        { role: 'user', content: text('Look at this:') },
        { role: 'user', content: image },
        answer,
      ],
    });
  });

  it('turns an empty list into no messages', () => {
    expect(normalizePromptResult([], where)).toEqual({ messages: [] });
  });

  it('keeps a whole result, with its description and _meta, normalising its messages', () => {
    const result = {
      description: 'A summary prompt',
      _meta: { 'example.com/k': 1 },
      messages: ['First', { role: 'assistant', content: image }],
    };
    expect(normalizePromptResult(result, where)).toEqual({
      description: 'A summary prompt',
      _meta: { 'example.com/k': 1 },
      messages: [
        { role: 'user', content: text('First') },
        { role: 'assistant', content: image },
      ],
    });
    expect(result.messages[0]).toBe('First');
  });

  it.each([
    ['a number', 42],
    ['a boolean', true],
    ['null', null],
    ['undefined', undefined],
    ['a plain object', { summary: 'x' }],
    ['a system message', { role: 'system', content: text('You are root.') }],
    ['a message without content', { role: 'user' }],
    ['a message with a string content', { role: 'user', content: 'Hi' }],
    ['a message with an unknown block', { role: 'user', content: { type: 'video', url: 'x' } }],
    ['a block missing its fields', { type: 'image', data: 'AAAA' }],
    ['an object whose messages is not a list', { messages: 'Hi' }],
  ])('refuses %s with a TypeError that names the method', (_what, value) => {
    expect(() => normalizePromptResult(value, where)).toThrow(TypeError);
    expect(() => normalizePromptResult(value, where)).toThrow(
      `${where} returned a prompt message that is neither a string, a content block nor ` +
        `{ role: 'user' | 'assistant', content }.`,
    );
  });

  it.each([
    ['in a list', ['ok', 7]],
    ['in a whole result', { messages: ['ok', null] }],
    ['nested in a list', [['ok']]],
  ])('refuses a bad message %s', (_what, value) => {
    expect(() => normalizePromptResult(value, where)).toThrow(`${where} returned a prompt message`);
  });
});
