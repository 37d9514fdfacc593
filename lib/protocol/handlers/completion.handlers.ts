import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/server';
import { Logger } from '@nestjs/common';
import { McpCall, type RequestScope } from '../../execution/mcp-call.js';
import { toProtocolError, uriTooLong } from '../../execution/protocol-error.mapper.js';
import { reportUnexpectedError } from '../../execution/unexpected-error.reporter.js';
import type { McpCompletionContext } from '../../interfaces/mcp-completion.interface.js';
import { MAX_COMPLETION_VALUES } from '../../mcp.constants.js';
import { listedValues } from '../../validation/string-values.coercer.js';
import type { McpCatalog } from '../../registry/mcp-catalog.js';
import type { Handlers } from './catalog-serving.interface.js';
import { unknownEntry } from '../unknown-entry.error.js';
import type { RegisteredPrompt, RegisteredTemplate } from '../../registry/registered-primitives.js';

/**
 * Answers `completion/complete` for a prompt argument or a template variable. A caller
 * whose guards hide the prompt or template learns nothing of it (the same "unknown" error
 * as for a name that does not exist); a static resource has nothing to complete.
 */
export async function complete(
  catalog: McpCatalog,
  request: CompleteRequest,
  scope: RequestScope,
): Promise<CompleteResult> {
  const { ref, argument, context } = request.params;
  const filledIn = context?.arguments ?? {};
  const isPrompt = ref.type === 'ref/prompt';
  const name = isPrompt ? ref.name : ref.uri;
  if (!isPrompt && name.length > catalog.maxUriLength) {
    throw uriTooLong(name.length, catalog.maxUriLength, scope.texts);
  }
  const target = isPrompt ? catalog.prompts.get(name) : catalog.templates.get(name);
  const unknownTarget = () =>
    isPrompt
      ? unknownEntry('prompt', name, 'prompts/list', scope.texts)
      : unknownEntry('resource template', name, 'resources/templates/list', scope.texts);
  if (!target) {
    if (!isPrompt && catalog.resources.get(name)) return { completion: { values: [] } };
    throw unknownTarget();
  }
  const listingCall = new McpCall({
    kind: isPrompt ? 'prompt' : 'resource',
    name,
    arguments: filledIn,
    scope,
    phase: 'list',
  });
  if (target.isVisible.guarded && !(await target.isVisible(listingCall))) throw unknownTarget();
  try {
    return {
      completion: await completeArgument(target, argument, {
        arguments: filledIn,
        argument: argument.name,
        call: listingCall,
      }),
    };
  } catch (error) {
    // A completer's failure reaches the client as the table says, never its stack.
    throw toProtocolError(error, { era: scope.era }, (unexpected) =>
      reportUnexpectedError(
        logger,
        `The completer of "${argument.name}"`,
        { where: `${isPrompt ? 'prompt' : 'template'} ${name}` },
        unexpected,
      ),
    );
  }
}

const logger = new Logger('Completion');

/**
 * Completes one argument of a prompt or one variable of a template: with its
 * `@McpCompletion()` method when it has one, else from the values its DTO lists
 * (`@IsEnum()`, `@IsIn()`) that start with what was typed (case-insensitive). At most 100
 * values are sent, with the total and whether there are more.
 */
export async function completeArgument(
  target: RegisteredPrompt | RegisteredTemplate,
  argument: { name: string; value: string },
  context: McpCompletionContext,
): Promise<CompleteResult['completion']> {
  const completer = target.completers.get(argument.name);
  if (completer) {
    const answer = await completer(argument.value, context);
    const values = Array.isArray(answer) ? answer : answer.values;
    const total = Array.isArray(answer) ? values.length : (answer.total ?? values.length);
    return capped(values, total, Array.isArray(answer) ? undefined : answer.hasMore);
  }
  const prefix = argument.value.toLowerCase();
  const matching = (listedValues(target.argumentsSchema, argument.name) ?? []).filter((value) =>
    value.toLowerCase().startsWith(prefix),
  );
  return capped(matching, matching.length);
}

function capped(
  values: readonly string[],
  total: number,
  hasMore?: boolean,
): CompleteResult['completion'] {
  const sent = values.slice(0, MAX_COMPLETION_VALUES).map(String);
  return {
    values: sent,
    total: Math.max(total, sent.length),
    hasMore: hasMore ?? total > sent.length,
  };
}

/** `completion/complete`. */
export const completionHandlers: Handlers = (serving, target) => {
  target.server.setRequestHandler('completion/complete', (request, ctx) =>
    complete(serving.catalog, request, target.scopeOf(ctx)),
  );
};
