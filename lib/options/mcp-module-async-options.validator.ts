import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { invalidAsyncOptionsMessage } from '../messages/options.messages.js';
import { isOptionsObject } from './option-checks.js';
import { MCP_MODULE_ASYNC_OPTION_KEYS } from './option-keys.js';
import { unknownOptionProblems } from './unknown-options.js';

const SOURCES = ['useFactory', 'useClass', 'useExisting'] as const;

/**
 * Checks the options of `forRootAsync()` themselves (where the module options come from),
 * before Nest's builder reads them: without a source, or with a typo in its name, the
 * builder would register a provider of `undefined` and Nest would fail with a message
 * that does not name McpModule. `undefined` when they are fine.
 */
export function checkMcpModuleAsyncOptions(options: unknown): McpConfigurationError | undefined {
  if (!isOptionsObject(options)) {
    return new McpConfigurationError(
      invalidAsyncOptionsMessage([
        'the options must be an object with useFactory, useClass or useExisting',
      ]),
    );
  }
  const problems = unknownOptionProblems(options, MCP_MODULE_ASYNC_OPTION_KEYS);
  const given = SOURCES.filter((source) => options[source] !== undefined);
  if (given.length === 0) {
    problems.push('one of "useFactory", "useClass" or "useExisting" must give the options');
  } else if (given.length > 1) {
    problems.push(
      `only one of "useFactory", "useClass" and "useExisting" may be given (got ${given.map((source) => `"${source}"`).join(' and ')})`,
    );
  }
  if (options.useFactory !== undefined && typeof options.useFactory !== 'function') {
    problems.push('"useFactory" must be a function that returns the options');
  }
  for (const source of ['useClass', 'useExisting'] as const) {
    if (options[source] !== undefined && typeof options[source] !== 'function') {
      problems.push(`"${source}" must be a class with a createMcpOptions() method`);
    }
  }
  for (const list of [
    'imports',
    'inject',
    'extraProviders',
    'provideInjectionTokensFrom',
  ] as const) {
    if (options[list] !== undefined && !Array.isArray(options[list])) {
      problems.push(`"${list}" must be an array`);
    }
  }
  return problems.length > 0
    ? new McpConfigurationError(invalidAsyncOptionsMessage(problems))
    : undefined;
}
