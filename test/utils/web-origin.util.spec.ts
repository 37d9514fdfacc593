import { describe, expect, it } from 'vitest';
import { originPort, webOrigin } from '../../lib/utils/web-origin.util.js';

describe('webOrigin', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['HTTPS://App.Example.com:443', 'https://app.example.com'],
    ['http://localhost:5173/', 'http://localhost:5173'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
    ['chrome-extension://abcdefghijklmnop', 'chrome-extension://abcdefghijklmnop'],
  ])('serializes %s as %s', (value, origin) => {
    expect(webOrigin(value)).toBe(origin);
  });

  it.each([
    'null',
    'app.example.com',
    'https://app.example.com/path',
    'https://app.example.com/?',
    'https://app.example.com#x',
    'https://user:pw@app.example.com',
    'http://a, http://b',
    '',
  ])('is undefined for %j, which is not exactly an origin', (value) => {
    expect(webOrigin(value)).toBeUndefined();
  });
});

describe('originPort', () => {
  it('is the port an origin names, else its scheme default', () => {
    expect(originPort('http://localhost:3000')).toBe('3000');
    expect(originPort('http://localhost')).toBe('80');
    expect(originPort('https://app.example.com')).toBe('443');
  });
});
