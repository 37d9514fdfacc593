import { describe, expect, it } from 'vitest';
import { DetachedResponse } from '../../lib/context/detached-response.js';

describe('DetachedResponse', () => {
  it('records headers set the Express and Fastify ways, case-insensitively', () => {
    const response = new DetachedResponse();
    response.header('Retry-After', 12).set({ 'X-RateLimit-Limit': 2 }).setHeader('x-cache', 'HIT');
    expect(response.getHeaders()).toEqual({
      'retry-after': 12,
      'x-ratelimit-limit': 2,
      'x-cache': 'HIT',
    });
    expect(response.get('RETRY-AFTER')).toBe(12);
    expect(response.hasHeader('x-cache')).toBe(true);
  });

  it('keeps a body an HTTP-minded filter tried to send, without sending anything', () => {
    const response = new DetachedResponse();
    response.status(500).json({ statusCode: 500 });
    expect(response.statusCode).toBe(500);
    expect(response.body).toEqual({ statusCode: 500 });
    expect(response.headersSent).toBe(false);
  });
});
