import { Exclude } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { normalizeResourceResult } from '../../lib/execution/resource-result.normalizer.js';

const uri = 'app://reports/7';

class Report {
  id = 7;
  title = 'Q3';
  @Exclude()
  internalNotes = 'do not share';
}

describe('normalizeResourceResult', () => {
  it('turns a string into text contents, text/plain unless the resource says otherwise', () => {
    expect(normalizeResourceResult('# Title', uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'text/plain', text: '# Title' }],
    });
    expect(normalizeResourceResult('# Title', uri, 'text/markdown')).toEqual({
      contents: [{ uri, mimeType: 'text/markdown', text: '# Title' }],
    });
  });

  it('keeps an empty string as empty text (the resource exists)', () => {
    expect(normalizeResourceResult('', uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'text/plain', text: '' }],
    });
  });

  it.each([
    ['a Buffer', Buffer.from([0, 1, 2, 253, 254, 255])],
    ['a Uint8Array', new Uint8Array([0, 1, 2, 253, 254, 255])],
    ['an ArrayBuffer', new Uint8Array([0, 1, 2, 253, 254, 255]).buffer],
  ])('turns %s into a base64 blob, application/octet-stream by default', (_what, bytes) => {
    expect(normalizeResourceResult(bytes, uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'application/octet-stream', blob: 'AAEC/f7/' }],
    });
    expect(normalizeResourceResult(bytes, uri, 'image/png')).toEqual({
      contents: [{ uri, mimeType: 'image/png', blob: 'AAEC/f7/' }],
    });
  });

  it('encodes only the bytes a view shows, not its whole buffer', () => {
    const whole = new Uint8Array([9, 9, 0, 1, 2, 9]);
    const view = whole.subarray(2, 5);
    expect(normalizeResourceResult(view, uri, undefined)?.contents[0]).toMatchObject({
      blob: Buffer.from([0, 1, 2]).toString('base64'),
    });
    const pooled = Buffer.from('hi'); // small Buffers share a pool
    expect(normalizeResourceResult(pooled, uri, undefined)?.contents[0]).toMatchObject({
      blob: 'aGk=',
    });
  });

  it('turns empty bytes into an empty blob', () => {
    expect(normalizeResourceResult(new Uint8Array(), uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'application/octet-stream', blob: '' }],
    });
  });

  it('passes resource contents through, with their own URI and MIME type', () => {
    const text = { uri: 'app://reports/7#summary', mimeType: 'text/csv', text: 'a,b' };
    const blob = { uri, blob: 'AAAA' };
    expect(normalizeResourceResult(text, uri, 'application/json')).toEqual({ contents: [text] });
    expect(normalizeResourceResult(blob, uri, undefined)).toEqual({ contents: [blob] });
  });

  it('passes a list of resource contents through', () => {
    const list = [
      { uri: `${uri}/a`, text: 'A' },
      { uri: `${uri}/b`, blob: 'Qg==' },
    ];
    expect(normalizeResourceResult(list, uri, undefined)).toEqual({ contents: list });
  });

  it('passes a whole ReadResourceResult through', () => {
    const result = { contents: [{ uri, text: 'x' }], _meta: { 'example.com/k': 1 } };
    expect(normalizeResourceResult(result, uri, undefined)).toBe(result);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a result with empty contents', { contents: [] }],
  ])('answers "nothing there" for %s', (_what, value) => {
    expect(normalizeResourceResult(value, uri, 'text/plain')).toBeUndefined();
  });

  it('serialises any other object as JSON, as Nest serialises responses', () => {
    expect(normalizeResourceResult({ total: 2, items: ['a', 'b'] }, uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'application/json', text: '{"total":2,"items":["a","b"]}' }],
    });
  });

  it('never leaks @Exclude() fields of class instances', () => {
    const result = normalizeResourceResult(new Report(), uri, undefined);
    expect(result).toEqual({
      contents: [{ uri, mimeType: 'application/json', text: '{"id":7,"title":"Q3"}' }],
    });
    expect(JSON.stringify(result)).not.toContain('do not share');
  });

  it('honours @Exclude() inside lists and keeps the mime type of the resource', () => {
    const result = normalizeResourceResult([new Report()], uri, 'application/vnd.report+json');
    expect(result).toEqual({
      contents: [{ uri, mimeType: 'application/vnd.report+json', text: '[{"id":7,"title":"Q3"}]' }],
    });
  });

  it.each([
    ['a number', 42, '42'],
    ['zero', 0, '0'],
    ['false', false, 'false'],
    ['an empty list', [], '[]'],
    ['an empty object', {}, '{}'],
  ])('serialises %s as JSON (it is a value, not "nothing there")', (_what, value, text) => {
    expect(normalizeResourceResult(value, uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'application/json', text }],
    });
  });

  it.each([
    ['contents without text or blob', { uri, name: 'x' }],
    ['contents whose text is not a string', { uri, text: 5 }],
    ['contents without a URI', { text: 'x' }],
    ['a list mixing contents and other values', [{ uri, text: 'x' }, { other: true }]],
    ['a result whose contents are not all contents', { contents: [{ uri, text: 'x' }, 'y'] }],
  ])('does not mistake %s for resource contents', (_what, value) => {
    expect(normalizeResourceResult(value, uri, undefined)).toEqual({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }],
    });
  });
});
