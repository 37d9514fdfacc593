import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { withPromptDescription } from '../localized-serving.js';
import { unknownEntry } from '../unknown-entry.error.js';
import type { Handlers } from './handler-context.js';
import { listPage } from './list-page.js';
import { checkedArguments } from './tool.handlers.js';

/** `prompts/list` and `prompts/get`. */
export const promptHandlers: Handlers = (context, unit) => {
  const { prompts } = context.catalog;
  const { localization } = context;

  unit.server.setRequestHandler('prompts/list', async (request, ctx) => {
    const page = await listPage(context, unit, prompts, 'prompts', ctx, request.params?.cursor);
    return { prompts: page.items, nextCursor: page.nextCursor };
  });

  unit.server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const prompt = prompts.get(name);
    const scope = unit.scopeOf(ctx);
    if (!prompt) throw unknownEntry('prompt', name, 'prompts/list', scope.texts);
    const result = await prompt.get(context.call('prompt', name, checkedArguments(args), scope));
    if (isInputRequiredResult(result)) {
      if (!unit.canAsk) context.cannotAsk(`prompt "${name}"`);
      return result;
    }
    return localization
      ? withPromptDescription(result, prompt.definition, localization, scope)
      : result;
  });
};
