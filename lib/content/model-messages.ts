/**
 * The library's own words to the model, by message id: what `_messages` keys of a
 * translation file replace (docs/i18n.md). `$name` placeholders are filled from the
 * message's parameters, as class-validator fills `$property` and `$constraint1`.
 */
export const MODEL_MESSAGES = {
  unknownTool: 'Unknown tool "$name". Call $listMethod to see the tools this server offers.',
  unknownPrompt: 'Unknown prompt "$name". Call $listMethod to see the prompts this server offers.',
  unknownResourceTemplate:
    'Unknown resource template "$name". Call $listMethod to see the resource templates this server offers.',
  resourceNotFound:
    'Resource not found: $uri. Call resources/list or resources/templates/list to see what this server offers.',
  uriTooLong:
    'URI too long: $length characters, over the limit of $limit. Call resources/list or resources/templates/list to see what this server offers.',
  invalidArguments: 'Invalid arguments:',
  allowedValues: 'allowed: $values',
  forbidden: 'Forbidden resource',
  missingScope: 'Missing scope: one of $scopes is required; the caller has $granted.',
  missingScopes: 'Missing scope(s): $scopes; the caller has $granted.',
  retryAfter: 'Retry after $seconds seconds.',
  toolTimedOut:
    'Tool "$name" timed out after $timeoutMs ms and was stopped; it may have done part of its work. Check its effects before calling it again, or ask for less at once.',
  toolBusy:
    'Tool "$name" is busy: $running calls running ($limit $value) and $waiting waiting (concurrency.queue $queue); retry shortly.',
  toolBusyForCaller:
    'Tool "$name" is busy for this caller: $running of its calls running ($limit $value) and $waiting waiting; retry shortly.',
  internalError:
    'Internal error: the tool failed unexpectedly (reference $reference). The details were logged on the server; retrying with the same arguments may fail again.',
} as const;

export type ModelMessageId = keyof typeof MODEL_MESSAGES;

export type ModelMessageParams = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\$([A-Za-z][A-Za-z0-9]*)/g;

/** `template` with each `$name` replaced by its parameter; unknown ones stay as written. */
export function fillPlaceholders(template: string, params: ModelMessageParams): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The English text of a library message. */
export const modelMessage = (id: ModelMessageId, params: ModelMessageParams = {}): string =>
  fillPlaceholders(MODEL_MESSAGES[id], params);

const MESSAGE_ID = Symbol('nestjs-mcp.modelMessage');

/** A message id and its parameters, as an error carries them for translation. */
export interface ModelMessageRef {
  readonly id: ModelMessageId;
  readonly params: ModelMessageParams;
}

/** Marks an error with the library message it words, so the mapper can translate it. */
export function withModelMessage<E extends object>(
  error: E,
  id: ModelMessageId,
  params: ModelMessageParams = {},
): E {
  Object.defineProperty(error, MESSAGE_ID, { value: { id, params } satisfies ModelMessageRef });
  return error;
}

/** The library message an error words, if it is one. */
export const modelMessageOf = (error: unknown): ModelMessageRef | undefined =>
  typeof error === 'object' && error !== null
    ? ((error as Record<symbol, ModelMessageRef | undefined>)[MESSAGE_ID] ?? undefined)
    : undefined;
