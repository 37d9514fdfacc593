import { Logger } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { CapturedLogs, referenceIn } from './captured-logs.js';

describe('CapturedLogs', () => {
  it("records what Nest's Logger sends it, with level, context, message and stack", () => {
    const logs = new CapturedLogs();
    Logger.overrideLogger(logs);
    const logger = new Logger('McpModule');
    logger.warn('a warning');
    logger.error('failed [ref 1a2b3c4d]: Error: boom\n    at Service.method (file.ts:1:1)');
    new Logger('ExceptionsHandler').error(new Error('kaboom'));
    logger.error('with a stack', 'Error: x\n    at y');

    expect(logs.warnings()).toEqual([
      { level: 'warn', context: 'McpModule', message: 'a warning', stack: undefined },
    ]);
    expect(logs.errors()).toMatchObject([
      {
        context: 'McpModule',
        message: expect.stringContaining('[ref 1a2b3c4d]'),
        stack: undefined,
      },
      { context: 'ExceptionsHandler', message: 'Error: kaboom', stack: /^Error: kaboom\n\s+at / },
      { context: 'McpModule', message: 'with a stack', stack: 'Error: x\n    at y' },
    ]);
    expect(logs.errors().map((entry) => entry.level)).toEqual(['error', 'error', 'error']);
  });

  it('lets a test claim an error by fragments, once, and fails on any error left unclaimed', () => {
    const logs = new CapturedLogs();
    logs.error('Tool "x" failed [ref 1a2b3c4d]: Error: boom', undefined, 'McpModule');
    logs.error('Tool "x" failed [ref 5e6f7a8b]: Error: boom', undefined, 'McpModule');

    expect(logs.expectError('[McpModule] Tool "x"', /ref [0-9a-f]{8}/).message).toContain(
      '1a2b3c4d',
    );
    expect(() => logs.expectError('[ref 1a2b3c4d]')).toThrow(/No logged error contains/);
    expect(() => logs.verify()).toThrow(
      /logged 1 error\(s\) no test expected:\n- \[McpModule\] Tool "x" failed \[ref 5e6f7a8b\]/,
    );
    // verify() starts afresh: nothing is reported twice.
    expect(() => logs.verify()).not.toThrow();
  });

  it('reads the reference a masked error quotes to the client', () => {
    expect(referenceIn('Internal error: the tool failed (reference 0a1b2c3d). Try')).toBe(
      '0a1b2c3d',
    );
    expect(() => referenceIn('Internal error')).toThrow(/No error reference/);
  });
});
