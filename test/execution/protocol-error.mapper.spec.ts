import { ProtocolError, ResourceNotFoundError } from '@modelcontextprotocol/server';
import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { McpToolError } from 'nestjs-mcp';
import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentsError } from '../../lib/errors/invalid-arguments.error.js';
import {
  resourceNotFound,
  toProtocolError,
  uriTooLong,
} from '../../lib/execution/protocol-error.mapper.js';

const noUnexpected = vi.fn(() => {
  throw new Error('not expected to be reported');
});

const prompt = { era: 'modern' as const };
const legacyPrompt = { era: 'legacy' as const };
const resource = { era: 'modern' as const, uri: 'app://orders/7' };
const legacyResource = { era: 'legacy' as const, uri: 'app://orders/7' };

describe('resourceNotFound', () => {
  it('words "not found" as -32002 with data.uri for 2025-era clients', () => {
    const error = resourceNotFound('app://orders/7', 'legacy');
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32002);
    expect(error.data).toEqual({ uri: 'app://orders/7' });
  });

  it('words "not found" as -32602 with data.uri for 2026-07-28 clients', () => {
    const error = resourceNotFound('app://orders/7', 'modern');
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ uri: 'app://orders/7' });
  });

  it.each(['legacy', 'modern'] as const)('names the URI and where to look (%s)', (era) => {
    const { message } = resourceNotFound('app://orders/7', era);
    expect(message).toContain('Resource not found: app://orders/7.');
    expect(message).toContain('resources/list');
    expect(message).toContain('resources/templates/list');
  });
});

describe('uriTooLong', () => {
  it('is -32602 with the length and the limit, in the message and in data', () => {
    const error = uriTooLong(32_008, 4096);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(
      'URI too long: 32008 characters, over the limit of 4096. Call resources/list',
    );
    expect(error.data).toEqual({ length: 32_008, maxUriLength: 4096 });
  });
});

describe('toProtocolError (the error mapping table)', () => {
  it('passes a ProtocolError through as it is', () => {
    const thrown = new ProtocolError(-32042, 'Custom', { x: 1 });
    expect(toProtocolError(thrown, resource, noUnexpected)).toBe(thrown);
  });

  it('names each invalid argument with -32602, and the issues as data', () => {
    const issues = [
      { path: '/page', constraint: 'isInt', message: 'page must be an integer number' },
      { path: '/colour', constraint: 'isIn', message: 'colour is not allowed', allowed: ['red'] },
    ];
    const error = toProtocolError(
      new InvalidArgumentsError('summary', issues, 'prompt'),
      prompt,
      noUnexpected,
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('/page: page must be an integer number');
    expect(error.message).toContain('/colour: colour is not allowed');
    expect(error.data).toEqual({ issues });
  });

  it.each([
    ['legacy', legacyResource, -32002],
    ['modern', resource, -32602],
  ] as const)(
    'turns a NotFoundException from a resource into "resource not found" (%s)',
    (_era, target, code) => {
      const error = toProtocolError(new NotFoundException('No order 7'), target, noUnexpected);
      expect(error.code).toBe(code);
      expect(error.data).toEqual({ uri: 'app://orders/7' });
      expect(error.message).toContain('Resource not found: app://orders/7');
    },
  );

  it.each([prompt, legacyPrompt])(
    'turns a NotFoundException from a prompt into -32602 with its message',
    (target) => {
      const error = toProtocolError(new NotFoundException('No such topic'), target, noUnexpected);
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('Not Found (404): No such topic');
      expect(error.data).toEqual({ statusCode: 404 });
    },
  );

  it('passes an McpToolError message and data with -32602', () => {
    const error = toProtocolError(
      new McpToolError('Closed today.', { retryAfter: 'tomorrow' }),
      resource,
      noUnexpected,
    );
    expect(error.code).toBe(-32602);
    expect(error.message).toBe('Closed today.');
    expect(error.data).toEqual({ retryAfter: 'tomorrow' });
  });

  it.each([
    [new ForbiddenException(), 'Forbidden (403): Forbidden', 403],
    [new UnauthorizedException('Log in first'), 'Unauthorized (401): Log in first', 401],
    [
      new BadRequestException(['name must be a string', 'price must be positive']),
      'Bad Request (400): name must be a string; price must be positive',
      400,
    ],
    [new HttpException('Slow down', 429), 'Too Many Requests (429): Slow down', 429],
    [new HttpException({ message: 'Custom body' }, 418), "I'm a Teapot (418): Custom body", 418],
  ])('maps the 4xx %s to -32602 with status and message', (exception, message, statusCode) => {
    const error = toProtocolError(exception, resource, noUnexpected);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(message);
    expect(error.data).toEqual({ statusCode });
  });

  it.each([
    [new ServiceUnavailableException('Try later'), 'Service Unavailable (503): Try later', 503],
    [new InternalServerErrorException(), 'Internal Server Error (500): Internal Server Error', 500],
  ])('maps the 5xx %s to -32603 with status and message', (exception, message, statusCode) => {
    const error = toProtocolError(exception, prompt, noUnexpected);
    expect(error.code).toBe(-32603);
    expect(error.message).toBe(message);
    expect(error.data).toEqual({ statusCode });
  });

  it.each([
    ['an Error', new TypeError("Cannot read properties of undefined (reading 'password=hunter2')")],
    ['a string', 'password=hunter2'],
    ['an object', { secret: 'password=hunter2' }],
    ['undefined', undefined],
  ])('masks %s behind -32603 and a log reference, reporting it once', (_what, thrown) => {
    const report = vi.fn(() => 'ref-1234');
    const error = toProtocolError(thrown, resource, report);
    expect(report).toHaveBeenCalledExactlyOnceWith(thrown);
    expect(error.code).toBe(-32603);
    expect(error.message).toContain('reference ref-1234');
    expect(error.message).not.toContain('hunter2');
    expect(JSON.stringify(error.data ?? null)).not.toContain('hunter2');
  });
});
