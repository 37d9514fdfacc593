import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { modelMessage, type ModelMessageId } from '../content/model-messages.js';
import type { LocalizedTexts } from '../localization/localized-texts.js';

const MESSAGE_IDS: Readonly<Record<string, ModelMessageId>> = {
  tool: 'unknownTool',
  prompt: 'unknownPrompt',
  'resource template': 'unknownResourceTemplate',
};

/**
 * The JSON-RPC error for a tool, prompt or template that does not exist: `-32602` with the
 * list method to call, in the caller's language with `i18n`. Completion answers the same
 * for one the caller's guards hide, so a caller learns nothing of what it may not see.
 */
export const unknownEntry = (
  what: 'tool' | 'prompt' | 'resource template',
  name: string,
  listMethod: string,
  texts?: LocalizedTexts,
) => {
  const id = MESSAGE_IDS[what]!;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    texts ? texts.message(id, { name, listMethod }) : modelMessage(id, { name, listMethod }),
  );
};
