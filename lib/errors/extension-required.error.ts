import {
  MissingRequiredClientCapabilityError,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import { extensionRequiredMessage } from '../messages/extensions.messages.js';

/**
 * `-32021` (missing client capability, HTTP 400): `what` needs the extension `id`, which
 * the caller did not declare. The error 2026-07-28 prescribes for a request that needs a
 * capability the client did not declare (basic/index "Per-request protocol fields"), with
 * the extension in `data.requiredCapabilities`; 2025-11-25 defines none, and gets the same.
 */
export const extensionRequired = (what: string, id: string, era: ProtocolEra) =>
  new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [id]: {} } } },
    extensionRequiredMessage(what, id, era),
  );
