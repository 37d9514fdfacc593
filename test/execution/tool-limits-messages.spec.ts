import { describe, expect, it } from 'vitest';
import { toolErrorToResult } from '../../lib/execution/tool-error.mapper.js';
import { ToolBusyError, ToolTimeoutError } from '../../lib/execution/tool-limits.js';
import type { McpTranslationTree } from '../../lib/interfaces/mcp-translation-source.interface.js';
import { ChainTexts } from '../../lib/localization/localized-texts.js';
import { TranslationChain } from '../../lib/localization/translation.chain.js';

const german = (() => {
  const trees: Record<string, McpTranslationTree> = {
    de: {
      _messages: {
        toolTimedOut: 'Das Tool "$name" wurde nach $timeoutMs ms gestoppt.',
        toolBusy: 'Das Tool "$name" ist ausgelastet ($limit $value, $waiting wartend).',
        retryAfter: 'In $seconds Sekunden erneut versuchen.',
      },
    },
  };
  const chain = new TranslationChain(
    { locales: () => ['de'], load: (locale, group) => (group ? undefined : trees[locale]) },
    'shop',
    'en',
    ['en', 'de'],
  );
  return new ChainTexts(chain, 'de');
})();

const unexpected = () => {
  throw new Error('a limit is no unexpected error');
};

describe('the results of the tool limits', () => {
  it('says that a tool timed out, with what to do, and marks it for telemetry', () => {
    expect(toolErrorToResult(new ToolTimeoutError('export', 5_000), unexpected)).toEqual({
      content: [
        {
          type: 'text',
          text:
            'Tool "export" timed out after 5000 ms and was stopped; it may have done part of ' +
            'its work. Check its effects before calling it again, or ask for less at once.',
        },
      ],
      structuredContent: { error: 'tool_timeout', timeoutMs: 5_000 },
      isError: true,
    });
  });

  it('refuses a busy tool in the retry form of a rate limiter, naming the limit', () => {
    const busy = new ToolBusyError('export', {
      limit: 'max',
      value: 4,
      running: 4,
      waiting: 4,
      queue: 4,
    });
    expect(toolErrorToResult(busy, unexpected)).toEqual({
      content: [
        {
          type: 'text',
          text:
            'Tool "export" is busy: 4 calls running (concurrency.max 4) and 4 waiting ' +
            '(concurrency.queue 4); retry shortly. Retry after 1 seconds.',
        },
      ],
      structuredContent: {
        error: 'tool_concurrency_limit',
        limit: 'concurrency.max',
        value: 4,
        running: 4,
        waiting: 4,
        queue: 4,
        retryAfterSeconds: 1,
      },
      isError: true,
    });
  });

  it("words both in the call's language with i18n, English where no translation says", () => {
    const timedOut = toolErrorToResult(
      new ToolTimeoutError('export', 5_000),
      unexpected,
      {},
      german,
    );
    expect(timedOut.content).toEqual([
      { type: 'text', text: 'Das Tool "export" wurde nach 5000 ms gestoppt.' },
    ]);
    const busy = (limit: 'max' | 'perCaller') =>
      toolErrorToResult(
        new ToolBusyError('export', { limit, value: 1, running: 1, waiting: 0, queue: 0 }),
        unexpected,
        {},
        german,
      ).content;
    expect(busy('max')).toEqual([
      {
        type: 'text',
        text:
          'Das Tool "export" ist ausgelastet (concurrency.max 1, 0 wartend). ' +
          'In 1 Sekunden erneut versuchen.',
      },
    ]);
    expect(busy('perCaller')).toEqual([
      {
        type: 'text',
        text:
          'Tool "export" is busy for this caller: 1 of its calls running ' +
          '(concurrency.perCaller 1) and 0 waiting; retry shortly. In 1 Sekunden erneut versuchen.',
      },
    ]);
  });
});
