import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
// ajv-formats is CommonJS: under NodeNext its function is the default export's `default`.
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';

/**
 * The published schemas of test/fixtures/schemas (copied byte for byte, see its README),
 * compiled once: the Server Card of the SEP-2127 draft (JSON Schema 2020-12, the card is
 * `#/$defs/ServerCard`) and the MCP Registry's `server.json` (draft-07).
 */
const schema = (file: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/schemas/${file}`, import.meta.url), 'utf8'));

const CARD_SCHEMA = schema('mcp-server-card.v1-draft.schema.json');
const REGISTRY_SCHEMA = schema('mcp-registry-server.2025-12-11.schema.json');

const ajv2020 = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv2020);
ajv2020.addSchema(CARD_SCHEMA, 'server-card');
const validateCard = ajv2020.getSchema('server-card#/$defs/ServerCard')!;

const ajv07 = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv07);
const validateRegistryServer = ajv07.compile(REGISTRY_SCHEMA);

const describe = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);

/** What the draft's schema finds wrong with a Server Card (`[]`: valid). */
export function serverCardProblems(card: unknown): string[] {
  return validateCard(card) ? [] : describe(validateCard.errors);
}

/** What the registry's schema finds wrong with a `server.json` (`[]`: valid). */
export function serverJsonProblems(document: unknown): string[] {
  return validateRegistryServer(document) ? [] : describe(validateRegistryServer.errors);
}
