import { describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import type { McpScaleOut } from '../../lib/interfaces/mcp-scale-out.interface.js';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';

const base = { name: 'catalog', version: '1.0.0' };
const secret = 'a'.repeat(64);

/** Something with the methods of McpScaleOut, for the option checks only (never connected). */
const scaleOut = {
  instanceId: 'a1',
  connect: async () => undefined,
  close: async () => undefined,
  changeBus: () => ({ publish: async () => undefined, subscribe: () => () => undefined }),
  taskStore: () => ({}),
  taskQueue: () => ({}),
  sessionEventStore: () => ({}),
} as unknown as McpScaleOut;

function problemOf(options: object): string {
  try {
    validateMcpModuleOptions({ ...base, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return (error as Error).message;
  }
  return '';
}

describe('validateMcpModuleOptions: scaleOut and tasks.queue', () => {
  it('accepts scaleOut with a shared request-state secret, and a queue with it', () => {
    expect(problemOf({ scaleOut, requestState: { secret } })).toBe('');
    expect(problemOf({ scaleOut, requestState: { secret }, tasks: { queue: 'mcp-tasks' } })).toBe(
      '',
    );
  });

  it('fails the bootstrap when scaleOut comes without requestState.secret, saying what to set', () => {
    for (const requestState of [undefined, { ttlSeconds: 60 }]) {
      const message = problemOf({ scaleOut, requestState });
      expect(message).toContain('"scaleOut" needs "requestState.secret"');
      expect(message).toContain('requestState: { secret: process.env.MCP_STATE_SECRET }');
    }
  });

  it('refuses a scaleOut that is not an McpScaleOut', () => {
    expect(
      problemOf({ scaleOut: { url: 'redis://localhost' }, requestState: { secret } }),
    ).toContain('"scaleOut" must implement McpScaleOut');
  });

  it('refuses tasks.queue without scaleOut, and a queue name that BullMQ cannot take', () => {
    expect(problemOf({ tasks: { queue: 'mcp-tasks' } })).toContain(
      '"tasks.queue" needs "scaleOut"',
    );
    expect(problemOf({ scaleOut, requestState: { secret }, tasks: { queue: 'a:b' } })).toContain(
      `"tasks.queue" must be a queue name of letters, digits, '_', '.' or '-', such as 'mcp-tasks' (got "a:b")`,
    );
  });
});
