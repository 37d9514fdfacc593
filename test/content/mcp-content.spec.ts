import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import {
  audioContent,
  contentList,
  embeddedResource,
  imageContent,
  resourceLink,
  textContent,
} from 'nestjs-mcp';
import { normalizeToolResult } from '../../lib/execution/tool-result.normalizer.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

describe('content helpers', () => {
  it('encode bytes as base64 and keep base64 strings as they are', () => {
    expect(imageContent(PNG, 'image/png')).toStrictEqual({
      type: 'image',
      data: 'iVBORw==',
      mimeType: 'image/png',
    });
    expect(audioContent('UklGRg==', 'audio/wav')).toStrictEqual({
      type: 'audio',
      data: 'UklGRg==',
      mimeType: 'audio/wav',
    });
    expect(imageContent(PNG.buffer, 'image/png').data).toBe('iVBORw==');
    // A view into a larger buffer encodes only its own bytes.
    expect(imageContent(Buffer.from([0, 1, 2, 3]).subarray(1, 3), 'image/png').data).toBe('AQI=');
  });

  it('build resource links and embedded resources (text or binary)', () => {
    expect(
      resourceLink('file:///r/q3.pdf', 'Q3 report', {
        mimeType: 'application/pdf',
        annotations: { audience: ['user'] },
      }),
    ).toStrictEqual({
      type: 'resource_link',
      uri: 'file:///r/q3.pdf',
      name: 'Q3 report',
      mimeType: 'application/pdf',
      annotations: { audience: ['user'] },
    });
    expect(embeddedResource('report://1.csv', { text: 'a,b', mimeType: 'text/csv' })).toStrictEqual(
      { type: 'resource', resource: { uri: 'report://1.csv', text: 'a,b', mimeType: 'text/csv' } },
    );
    expect(embeddedResource('blob://1', { blob: PNG })).toStrictEqual({
      type: 'resource',
      resource: { uri: 'blob://1', blob: 'iVBORw==' },
    });
  });

  it('combine any contents into one result, strings as text, which a tool returns as is', () => {
    const result = contentList(
      'Here is the chart:',
      imageContent(PNG, 'image/png', { annotations: { priority: 1 } }),
      textContent('for the user', { annotations: { audience: ['user'] } }),
    );
    expect(result).toStrictEqual({
      content: [
        { type: 'text', text: 'Here is the chart:' },
        { type: 'image', data: 'iVBORw==', mimeType: 'image/png', annotations: { priority: 1 } },
        { type: 'text', text: 'for the user', annotations: { audience: ['user'] } },
      ],
    });
    expect(normalizeToolResult(result)).toBe(result);
    expect(
      normalizeToolResult({ ...result, structuredContent: { n: 1 } }).structuredContent,
    ).toEqual({ n: 1 });
  });
});
