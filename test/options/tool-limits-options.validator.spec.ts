import { McpConfigurationError, McpTool } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';
import { definitionFactories, WRAPPER } from '../discovery/definition-factories.js';

const base = { name: 'catalog', version: '1.0.0' };

/** The problems the module validator lists, one per line. */
function problemsOf(options: unknown): string[] {
  try {
    validateMcpModuleOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return (error as Error).message
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => line.slice(4));
  }
  return [];
}

describe('the tools option (the limits every tool gets)', () => {
  it('accepts a timeout and a concurrency, short or full', () => {
    expect(problemsOf({ ...base, tools: { timeoutMs: 30_000, concurrency: 4 } })).toEqual([]);
    expect(
      problemsOf({ ...base, tools: { concurrency: { max: 4, perCaller: 1, queue: 0 } } }),
    ).toEqual([]);
    expect(problemsOf({ ...base, tools: { concurrency: { perCaller: 2 } } })).toEqual([]);
  });

  it.each([
    [{ tools: 30_000 }, '"tools" must be an object such as { timeoutMs: 30_000, concurrency: 8 }'],
    [
      { tools: { timeoutMs: 0 } },
      '"tools.timeoutMs" must be a whole number of milliseconds from 1 to 2147483647, such as 30_000 (got 0)',
    ],
    [
      { tools: { timeoutMs: false } },
      '"tools.timeoutMs" must be a whole number of milliseconds from 1 to 2147483647, such as 30_000 (got false)',
    ],
    [
      { tools: { timeoutMs: 2 ** 31 } },
      '"tools.timeoutMs" must be a whole number of milliseconds from 1 to 2147483647, such as 30_000 (got 2147483648)',
    ],
    [
      { tools: { concurrency: 0 } },
      '"tools.concurrency" must be a positive whole number (the calls running at once) or an object such as { max: 4, perCaller: 1, queue: 8 } (got 0)',
    ],
    [
      { tools: { concurrency: { max: 1.5 } } },
      '"tools.concurrency.max" must be a positive whole number (got 1.5)',
    ],
    [
      { tools: { concurrency: { max: 2, queue: -1 } } },
      '"tools.concurrency.queue" must be a whole number of calls, 0 to refuse at once (got -1)',
    ],
    [
      { tools: { concurrency: { queue: 4 } } },
      '"tools.concurrency" needs "max" or "perCaller": the queue holds calls beyond a limit, such as { max: 4, perCaller: 1, queue: 8 }',
    ],
  ])('%j: %s', (extra, problem) => {
    expect(problemsOf({ ...base, ...extra })).toEqual([problem]);
  });

  it('names an unknown key with the option it was meant to be', () => {
    expect(problemsOf({ ...base, tools: { timeout: 1_000 } })).toEqual([
      '`tools.timeout` is not an option; did you mean `tools.timeoutMs`?',
    ]);
    expect(problemsOf({ ...base, tools: { concurrency: { max: 2, percaller: 1 } } })).toEqual([
      '`tools.concurrency.percaller` is not an option; did you mean `tools.concurrency.perCaller`?',
    ]);
  });
});

class Catalog {
  @McpTool({ description: 'x' })
  search() {}
}

/** What `@McpTool()` with these options does at bootstrap: its checked limits, or the error. */
function discover(options: Parameters<typeof McpTool>[0]) {
  const { tools } = definitionFactories();
  return tools.create(WRAPPER, Catalog, 'search', { description: 'x', ...options });
}

describe('@McpTool({ timeoutMs, concurrency }) at bootstrap', () => {
  it('keeps the limits of the tool, false included (it turns a default off)', () => {
    expect(discover({}).limits).toBeUndefined();
    expect(discover({ timeoutMs: 5_000, concurrency: 2 }).limits).toEqual({
      timeoutMs: 5_000,
      concurrency: 2,
    });
    expect(discover({ timeoutMs: false, concurrency: false }).limits).toEqual({
      timeoutMs: false,
      concurrency: false,
    });
  });

  it('fails the bootstrap naming the method and every problem', () => {
    expect(() =>
      discover({ timeoutMs: -1, concurrency: { max: 2, percaller: 1 } as never }),
    ).toThrow(
      new McpConfigurationError(
        'Catalog.search: the limits of @McpTool() are invalid (use such as timeoutMs: 30_000, ' +
          'concurrency: 4 or concurrency: { max: 4, perCaller: 1, queue: 8 }): "timeoutMs" must ' +
          'be a whole number of milliseconds from 1 to 2147483647, such as 30_000, or false to ' +
          "turn the server's default off (got -1); `concurrency.percaller` is not an option; " +
          'did you mean `concurrency.perCaller`?',
      ),
    );
  });
});
