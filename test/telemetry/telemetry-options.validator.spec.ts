import { describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';

const base = { name: 'demo', version: '1.0.0' };

const problemsOf = (telemetry: unknown): string => {
  try {
    validateMcpModuleOptions({ ...base, telemetry });
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return (error as Error).message;
  }
  return '';
};

describe('the telemetry option', () => {
  it.each([
    undefined,
    false,
    {},
    { recordArguments: true, resourceUriInSpanName: false, phaseSpans: true },
  ])('accepts %j', (telemetry) => {
    expect(problemsOf(telemetry)).toBe('');
  });

  it('refuses anything but false or an object, saying what to write', () => {
    for (const telemetry of [true, 'on', ['recordArguments']]) {
      expect(problemsOf(telemetry)).toContain(
        '"telemetry" must be false (no spans or metrics) or an object such as { recordArguments: true }',
      );
    }
  });

  it('refuses switches that are not booleans, naming each', () => {
    const message = problemsOf({ recordArguments: 'yes', phaseSpans: 1 });
    expect(message).toContain('"telemetry.recordArguments" must be true or false');
    expect(message).toContain('"telemetry.phaseSpans" must be true or false');
  });

  it('names the option a misspelt key was meant to be', () => {
    expect(problemsOf({ recordArgs: true })).toContain('recordArguments');
  });
});
