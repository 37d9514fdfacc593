import { afterEach, describe, expect, it, vi } from 'vitest';
import { redirectConsoleToStderr } from '../../../lib/transports/stdio/console.redirect.js';
import { StderrLogger } from '../../../lib/transports/stdio/stderr.logger.js';

const spyOnStreams = () => ({
  stdout: vi.spyOn(process.stdout, 'write').mockImplementation(() => true),
  stderr: vi.spyOn(process.stderr, 'write').mockImplementation(() => true),
});

// Over stdio, stdout belongs to MCP: these check that logs and console output leave it alone.
describe('stdout stays for MCP', () => {
  afterEach(() => vi.restoreAllMocks());

  it('StderrLogger writes every level to stderr, in text and JSON', () => {
    const { stdout, stderr } = spyOnStreams();
    for (const logger of [new StderrLogger(), new StderrLogger({ json: true })]) {
      logger.log('a log line', 'Test');
      logger.warn('a warning', 'Test');
      logger.debug('a debug line', 'Test');
      logger.error('an error', 'Test');
    }
    expect(stdout).not.toHaveBeenCalled();
    const written = stderr.mock.calls.map(([chunk]) => String(chunk)).join('');
    for (const text of ['a log line', 'a warning', 'a debug line', 'an error', '"level":"log"']) {
      expect(written).toContain(text);
    }
  });

  it('redirectConsoleToStderr sends console.log/info/debug/table to stderr until restored', () => {
    const original = console.log;
    const { stdout, stderr } = spyOnStreams();
    const restore = redirectConsoleToStderr();
    try {
      console.log('from log');
      console.info('from info');
      console.debug('from debug');
      console.table([{ a: 1 }]);
    } finally {
      restore();
    }
    expect(stdout).not.toHaveBeenCalled();
    const written = stderr.mock.calls.map(([chunk]) => String(chunk)).join('');
    for (const text of ['from log', 'from info', 'from debug', '(index)']) {
      expect(written).toContain(text);
    }
    expect(console.log).toBe(original);
  });
});
