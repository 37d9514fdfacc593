import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  RELATED_TASK_META_KEY,
  type JSONRPCRequest,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { MODERN_REVISION } from '../../protocol/protocol-revisions.js';
import { isPlainObject } from '../../utils/value-checks.util.js';
import {
  header,
  isStatelessLegacyExchange,
  NAME_FIELD,
  type LeanCatalogFacts,
} from './lean-path.rules.js';

/**
 * The protocol rules the fast path restates (issue 28), all in this file: what a request
 * must be for the fast path to answer it without the SDK's classifier, its schemas (zod)
 * or an SDK server. Every rule is a condition for TAKING the fast path, as strict as the
 * SDK's check or stricter: a request that fails one goes on to the lean path or the SDK's
 * entry, which answer it (and every error of their validation ladder). The differential
 * test (test/transports/http/differential*.e2e-spec.ts) holds them to the SDK's answers.
 * Written against `@modelcontextprotocol/server` 2.4.0 (`classifyInboundRequest`, the
 * 2026-07-28 `RequestMetaEnvelopeSchema` and the request schemas of both revisions).
 */

/** The methods that dominate traffic, answered from the catalog (and 2025-era `ping`). */
const FAST_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'tools/list',
  'prompts/get',
  'prompts/list',
  'resources/read',
  'resources/list',
  'resources/templates/list',
  'ping',
  'server/discover',
]);

/** JSON-RPC 2.0 §4 "Request object": its members. */
const REQUEST_MEMBERS: ReadonlySet<string> = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * 2026-07-28, basic "Per-request envelope": the reserved `_meta` keys, lifted out of
 * `params._meta` before handlers see it (the SDK's `RESERVED_ENVELOPE_META_KEYS`).
 */
const ENVELOPE_KEYS = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
] as const;

/** One request the fast path answers. */
export interface FastRoute {
  readonly era: ProtocolEra;
  /** The request as handlers see it: the envelope keys lifted out of `params._meta`. */
  readonly message: JSONRPCRequest;
  /** The reserved `_meta` keys of a 2026-07-28 request. */
  readonly envelope?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

const isObject = isPlainObject;
const isOptional = (value: unknown, check: (value: unknown) => boolean) =>
  value === undefined || check(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';
/** A record of JSON objects (`z.record(z.string(), JSONObjectSchema)`). */
const isObjectRecord = (value: unknown) => isObject(value) && Object.values(value).every(isObject);

/**
 * 2026-07-28 schema `ClientCapabilities` as the envelope carries it: every member optional,
 * unknown members ignored; `experimental` and `extensions` records of objects, `sampling`,
 * `elicitation` and `roots` objects with their typed members.
 */
function isClientCapabilities(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { experimental, sampling, elicitation, roots, extensions } = value;
  return (
    isOptional(experimental, isObjectRecord) &&
    isOptional(extensions, isObjectRecord) &&
    isOptional(
      sampling,
      (it) => isObject(it) && isOptional(it.context, isObject) && isOptional(it.tools, isObject),
    ) &&
    isOptional(
      elicitation,
      (it) =>
        isObject(it) &&
        isOptional(
          it.form,
          (form) => isObject(form) && isOptional(form.applyDefaults, isBoolean),
        ) &&
        isOptional(it.url, isObject),
    ) &&
    isOptional(roots, (it) => isObject(it) && isOptional(it.listChanged, isBoolean))
  );
}

/** schema `Icon`: `src`, and optionally `mimeType`, `sizes` (strings) and a `theme`. */
const isIcon = (value: unknown) =>
  isObject(value) &&
  isString(value.src) &&
  isOptional(value.mimeType, isString) &&
  isOptional(value.sizes, (sizes) => Array.isArray(sizes) && sizes.every(isString)) &&
  isOptional(value.theme, (theme) => theme === 'light' || theme === 'dark');

/** schema `Implementation` (the envelope's `clientInfo`). */
const isImplementation = (value: unknown) =>
  isObject(value) &&
  isString(value.name) &&
  isString(value.version) &&
  isOptional(value.title, isString) &&
  isOptional(value.websiteUrl, isString) &&
  isOptional(value.description, isString) &&
  isOptional(value.icons, (icons) => Array.isArray(icons) && icons.every(isIcon));

/**
 * Each method's params (schema `CallToolRequestParams`, `GetPromptRequestParams`,
 * `ReadResourceRequestParams`, `PaginatedRequestParams`), beyond `_meta`: the members the
 * handlers read, typed as the schemas type them.
 */
function paramsFit(method: string, params: Json): boolean {
  switch (method) {
    case 'tools/call':
      return isString(params.name) && isOptional(params.arguments, isObject);
    case 'prompts/get':
      return (
        isString(params.name) &&
        isOptional(
          params.arguments,
          (args) => isObject(args) && Object.values(args).every(isString),
        )
      );
    case 'resources/read':
      return isString(params.uri);
    case 'ping':
    case 'server/discover':
      return true;
    default:
      return isOptional(params.cursor, isString);
  }
}

/**
 * The fast route of a POST, or `undefined` for the lean path or the SDK's entry.
 * @param legacyStateless whether 2025-era traffic is served per request (no `legacySessions`)
 */
export function fastRouteOf(
  request: IncomingMessage,
  body: unknown,
  legacyStateless: boolean,
  catalog: LeanCatalogFacts,
): FastRoute | undefined {
  // JSON-RPC 2.0 §4: one request object, nothing but its members; MCP basic "Requests":
  // the id a string or an integer. (Batches, notifications and responses go elsewhere.)
  if (!isObject(body) || body.jsonrpc !== '2.0') return undefined;
  for (const key in body) if (!REQUEST_MEMBERS.has(key)) return undefined;
  const { method, id } = body;
  if (!isString(method) || !FAST_METHODS.has(method)) return undefined;
  if (!isString(id) && !Number.isSafeInteger(id)) return undefined;
  const params = body.params === undefined ? {} : body.params;
  if (!isObject(params) || !paramsFit(method, params)) return undefined;
  // Streamable HTTP, "Sending messages to the server": a POST body is `application/json`.
  if (!isJsonContentType(header(request, 'content-type') ?? null)) return undefined;
  // Tasks (`params.task`), multi round-trip requests (`inputResponses`, `requestState`),
  // progress (a `progressToken`) and related tasks carry state or stream more than one
  // answer: the SDK serves them.
  if ('task' in params || 'inputResponses' in params || 'requestState' in params) return undefined;
  const meta = params._meta;
  if (meta !== undefined && !isObject(meta)) return undefined;
  if (meta && ('progressToken' in meta || RELATED_TASK_META_KEY in meta)) return undefined;
  const nameField = NAME_FIELD[method];
  const name = nameField && params[nameField];
  if (method === 'tools/call') {
    if (catalog.isTaskTool(name as string) || catalog.declaresParamHeaders(name as string)) {
      return undefined;
    }
  }
  const versionHeader = header(request, 'mcp-protocol-version');
  if (meta && ENVELOPE_KEYS.some((key) => key in meta)) {
    // 2026-07-28 has no `ping` (its codec answers -32601).
    return method === 'ping'
      ? undefined
      : modernRouteOf(request, body, params, meta, versionHeader, name);
  }
  // 2025-11-25 has no `server/discover`: without a claim it is a legacy probe, the SDK's.
  if (method === 'server/discover' || !legacyStateless) return undefined;
  // A 2025-era request the SDK would serve statelessly: handed on as sent.
  if (!isStatelessLegacyExchange(request, versionHeader)) return undefined;
  return { era: 'legacy', message: body as unknown as JSONRPCRequest };
}

/** A 2026-07-28 request, whose envelope claims the revision served. */
function modernRouteOf(
  request: IncomingMessage,
  body: Json,
  params: Json,
  meta: Json,
  versionHeader: string | undefined,
  name: unknown,
): FastRoute | undefined {
  const method = body.method as string;
  // "Per-request envelope": the claimed revision, the client's capabilities (required)
  // and its description; a log level asks for log notifications (a stream): the SDK's.
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  if (!isClientCapabilities(meta[CLIENT_CAPABILITIES_META_KEY])) return undefined;
  if (!isOptional(meta[CLIENT_INFO_META_KEY], isImplementation)) return undefined;
  if (LOG_LEVEL_META_KEY in meta) return undefined;
  // SEP-2243: `MCP-Protocol-Version` and `Mcp-Method` on every request, `Mcp-Name` on the
  // named methods, each equal to the body's value; only the exact, unencoded match is
  // fast (OWS or a `=?base64?...?=` value goes to the SDK, which decodes it).
  if (versionHeader !== MODERN_REVISION || header(request, 'mcp-method') !== method) {
    return undefined;
  }
  if (NAME_FIELD[method] && header(request, 'mcp-name') !== name) return undefined;
  // Lifted as the SDK lifts them (`liftWireOnlyMaterial`): in its order of the keys.
  const envelope: Json = {};
  const rest: Json = { ...meta };
  for (const key of ENVELOPE_KEYS) {
    if (key in meta) {
      envelope[key] = meta[key];
      delete rest[key];
    }
  }
  const { _meta: _lifted, ...others } = params;
  const liftedParams = Object.keys(rest).length > 0 ? { ...others, _meta: rest } : others;
  return { era: 'modern', message: { ...body, params: liftedParams } as JSONRPCRequest, envelope };
}
