import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  NotFoundException,
} from '@nestjs/common';
import { McpToolError } from 'nestjs-mcp';
import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentsError } from '../../lib/errors/invalid-arguments.error.js';
import { toolErrorToResult } from '../../lib/execution/tool-error.mapper.js';

const noUnexpected = () => {
  throw new Error('not expected to be reported');
};

describe('toolErrorToResult (the error mapping table)', () => {
  it('lists each invalid argument with its pointer, and the issues as structured content', () => {
    const issues = [
      { path: '/price', constraint: 'min', message: 'price must not be less than 0' },
    ];
    const result = toolErrorToResult(new InvalidArgumentsError('create', issues), noUnexpected);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain(
      '/price: price must not be less than 0',
    );
    expect(result.structuredContent).toEqual({ error: 'invalid_arguments', issues });
  });

  it('passes an McpToolError message and data to the model', () => {
    expect(
      toolErrorToResult(
        new McpToolError('Closed today.', { retryAfter: 'tomorrow' }),
        noUnexpected,
      ),
    ).toEqual({
      content: [{ type: 'text', text: 'Closed today.' }],
      structuredContent: { retryAfter: 'tomorrow' },
      isError: true,
    });
  });

  it.each([
    [new NotFoundException('No product 7'), 'Not Found (404): No product 7', 404],
    [new ForbiddenException(), 'Forbidden (403): Forbidden', 403],
    [
      new BadRequestException(['name must be a string', 'price must be positive']),
      'Bad Request (400): name must be a string; price must be positive',
      400,
    ],
    [new HttpException('Slow down', 429), 'Too Many Requests (429): Slow down', 429],
  ])('maps %s to an isError result with status and message', (exception, text, statusCode) => {
    const result = toolErrorToResult(exception, noUnexpected);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text }]);
    expect(result.structuredContent).toMatchObject({ statusCode });
  });

  it('adds the wait a rate limiter asked for, in words and as data', () => {
    const result = toolErrorToResult(
      new HttpException('ThrottlerException: Too Many Requests', 429),
      noUnexpected,
      { retryAfterSeconds: 42 },
    );
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Too Many Requests (429): ThrottlerException: Too Many Requests Retry after 42 seconds.',
      },
    ]);
    expect(result.structuredContent).toMatchObject({ statusCode: 429, retryAfterSeconds: 42 });
  });

  it('masks any other error behind a generic message with the log reference', () => {
    const report = vi.fn(() => 'abcd1234');
    const error = new TypeError("Cannot read properties of undefined (reading 'secret')");
    const result = toolErrorToResult(error, report);
    expect(report).toHaveBeenCalledWith(error);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('reference abcd1234');
    expect(text).not.toContain('secret');
  });
});
