import { isInputRequiredResult } from '@modelcontextprotocol/server';
import { withPromptDescription } from '../localized-serving.js';
import { assertStateOf } from '../request-scopes.js';
import { unknownEntry } from '../unknown-entry.error.js';
import type { Handlers } from './catalog-serving.interface.js';
import { listPage } from './list-page.js';
import { checkedArguments } from './tool.handlers.js';

/** `prompts/list` and `prompts/get`. */
export const promptHandlers: Handlers = (serving, target) => {
  const { prompts } = serving.catalog;
  const { localization } = serving;

  target.server.setRequestHandler('prompts/list', async (request, ctx) => {
    const page = await listPage(serving, target, prompts, 'prompts', ctx, request.params?.cursor);
    return { prompts: page.items, nextCursor: page.nextCursor };
  });

  target.server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name, arguments: args = {} } = request.params;
    const prompt = prompts.get(name);
    const scope = target.scopeOf(ctx);
    if (!prompt) throw unknownEntry('prompt', name, 'prompts/list', scope.texts);
    assertStateOf(ctx, name);
    const result = await prompt.get(serving.call('prompt', name, checkedArguments(args), scope));
    if (isInputRequiredResult(result)) {
      if (!target.canAsk) serving.cannotAsk(`prompt "${name}"`);
      return result;
    }
    return localization
      ? withPromptDescription(result, prompt.definition, localization, scope)
      : result;
  });
};
