import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../interfaces/json-schema.interface.js';

/*
 * The JSON Schema engine of the MCP SDK, rebuilt from the same parts. The SDK bundles Ajv
 * with ajv-formats, and reports a failure only as Ajv's `errorsText()` prose; the library
 * compiles with Ajv itself, to read its error objects. The Ajv version (the one the SDK
 * bundles), the options and the `$schema` dispatch are those of the SDK's
 * `AjvJsonSchemaValidator`, so a value passes here exactly when it passes the check of a
 * client built on the SDK.
 */

/** A compiled schema: `undefined` when the value passes, else Ajv's errors. */
export type AjvCheck = (value: unknown) => readonly ErrorObject[] | undefined;

type Dialect = '2020-12' | '2019-09' | 'draft-07';

/** `$schema` (without a trailing `#`) → the engine for it; draft-06 runs on draft-07's. */
const DIALECTS = new Map<string, Dialect>([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['http://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['http://json-schema.org/draft/2019-09/schema', '2019-09'],
  ['https://json-schema.org/draft-07/schema', 'draft-07'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
  ['https://json-schema.org/draft-06/schema', 'draft-07'],
  ['http://json-schema.org/draft-06/schema', 'draft-07'],
]);

const engines = new Map<Dialect, Ajv | Ajv2019 | Ajv2020>();

// The SDK's options: every error reported (`allErrors`), formats asserted, unknown
// keywords and formats tolerated (`strict: false`), and no meta-schema check, so that an
// app's own `inputSchema` is taken as it is written. Each engine is made on first use.
function engine(dialect: Dialect): Ajv | Ajv2019 | Ajv2020 {
  let found = engines.get(dialect);
  if (!found) {
    const Engine = dialect === '2020-12' ? Ajv2020 : dialect === '2019-09' ? Ajv2019 : Ajv;
    found = new Engine({
      strict: false,
      validateFormats: true,
      validateSchema: false,
      allErrors: true,
    });
    addFormats.default(found);
    engines.set(dialect, found);
  }
  return found;
}

/** No `$schema` means 2020-12, the dialect of MCP. */
function dialectOf(schema: JsonSchema): Dialect {
  if (typeof schema.$schema !== 'string') return '2020-12';
  const found = DIALECTS.get(schema.$schema.replace(/#$/, ''));
  if (found) return found;
  throw new Error(
    `JSON Schema declares an unsupported dialect ("$schema": "${schema.$schema.slice(0, 200)}"). ` +
      'The MCP SDK validates JSON Schema 2020-12, 2019-09, draft-07 and draft-06.',
  );
}

/**
 * Compiles a schema with the engine of its dialect. A schema with an `$id` is compiled
 * once per engine, as Ajv refuses a second schema with the same id.
 */
export function compileWithAjv(schema: JsonSchema): AjvCheck {
  const ajv = engine(dialectOf(schema));
  const validate =
    typeof schema.$id === 'string'
      ? (ajv.getSchema(schema.$id) ?? ajv.compile(schema))
      : ajv.compile(schema);
  return (value) => (validate(value) ? undefined : (validate.errors ?? []));
}
