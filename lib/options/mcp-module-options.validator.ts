import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { invalidOptionsMessage } from '../messages/options.messages.js';
import { appsOptionsProblems } from './apps-options.validator.js';
import { authOptionsProblems, authResourceProblems } from './auth-options.validator.js';
import { discoveryOptionsProblems } from './discovery-options.validator.js';
import { explorerOptionsProblems } from './explorer-options.validator.js';
import { telemetryOptionsProblems } from './telemetry-options.validator.js';
import { namingOptionsProblems } from './naming-options.validator.js';
import { extensionsOptionsProblems } from './extensions-options.validator.js';
import { tasksOptionsProblems } from './tasks-options.validator.js';
import { toolsOptionsProblems } from './tool-limits-options.validator.js';
import { i18nOptionsProblems } from './i18n-options.validator.js';
import { scaleOutOptionsProblems } from './scale-out-options.validator.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';
import { webOrigin } from '../utils/web-origin.util.js';
import {
  booleanProblem,
  isGuard,
  isOptionsObject,
  isPositiveInteger,
  wholeNumberProblem,
} from './option-checks.js';
import { MCP_MODULE_OPTION_KEYS } from './option-keys.js';
import { unknownOptionProblems } from './unknown-options.js';

/**
 * Checks the options at bootstrap, so that a mistake stops the app with a correct example:
 * every key must be one this library reads (a typo is named, with the option it was meant
 * to be) and every value must be one it can use. All problems are reported at once.
 */
export function validateMcpModuleOptions(options: unknown): McpModuleOptions {
  if (!isOptionsObject(options)) {
    throw new McpConfigurationError(invalidOptionsMessage(['the options must be an object']));
  }
  // The order of the problems is the order the message lists them in.
  const problems = [
    ...unknownOptionProblems(options, MCP_MODULE_OPTION_KEYS),
    ...groupProblems(options.group, options.groupVersion),
    ...serverOptionsProblems(options),
    ...identityProblems(options.name, options.version, options.instructions),
    ...httpOptionsProblems(options.http),
    ...authOptionsProblems(options.auth),
    ...authResourceProblems(options.auth, options.http),
    ...telemetryOptionsProblems(options.telemetry),
    ...namingOptionsProblems(options.naming, options.manifest),
    ...tasksOptionsProblems(options.tasks),
    ...toolsOptionsProblems(options.tools),
    ...extensionsOptionsProblems(options.extensions),
    ...appsOptionsProblems(options.apps),
    ...i18nOptionsProblems(options.i18n),
    ...scaleOutOptionsProblems(options),
    ...discoveryOptionsProblems(options.discovery, options.http),
    ...explorerOptionsProblems(options.explorer, options.http),
  ];
  if (problems.length > 0) throw new McpConfigurationError(invalidOptionsMessage(problems));
  return options as unknown as McpModuleOptions;
}

/** The problems a check found, without the checks that passed (`undefined`). */
const found = (problems: (string | undefined)[]): string[] =>
  problems.filter((problem): problem is string => problem !== undefined);

/** `group` and `groupVersion`: a version is only meaningful within a group. */
function groupProblems(group: unknown, groupVersion: unknown): string[] {
  const problems: string[] = [];
  if (group !== undefined && !isNonEmptyString(group)) {
    problems.push(
      `"group" must be a non-empty string such as 'catalog' (got ${JSON.stringify(group)})`,
    );
  }
  if (groupVersion !== undefined) {
    if (!isNonEmptyString(groupVersion)) {
      problems.push(
        `"groupVersion" must be a non-empty string such as '2' (got ${JSON.stringify(groupVersion)})`,
      );
    } else if (group === undefined) {
      problems.push(
        '"groupVersion" needs "group": a version belongs to a group, such as { group: \'catalog\', groupVersion: \'2\' }',
      );
    }
  }
  return problems;
}

/** The top-level options that tune how the server behaves (paging, state, schemas, filters). */
function serverOptionsProblems(options: Record<string, unknown>): string[] {
  const { pageSize, requestState, schema, listTemplatesAsResources, useGlobalFilters } = options;
  const { callerScopes, identity } = options;
  const problems: string[] = [];
  if (pageSize !== undefined && !isPositiveInteger(pageSize)) {
    problems.push(`"pageSize" must be a positive integer (got ${JSON.stringify(pageSize)})`);
  }
  if (options.maxUriLength !== undefined && !isPositiveInteger(options.maxUriLength)) {
    problems.push(
      `"maxUriLength" must be a positive integer, a number of characters such as 4096 ` +
        `(got ${JSON.stringify(options.maxUriLength)})`,
    );
  }
  problems.push(...requestStateProblems(requestState));
  if (schema !== undefined && !isOptionsObject(schema)) {
    problems.push('"schema" must be an object such as { nullableOptionals: true }');
  } else {
    problems.push(
      ...found([booleanProblem('schema.nullableOptionals', schema?.nullableOptionals)]),
    );
  }
  problems.push(
    ...found([
      booleanProblem('listTemplatesAsResources', listTemplatesAsResources),
      booleanProblem('useGlobalFilters', useGlobalFilters),
    ]),
  );
  if (identity !== undefined && typeof identity !== 'function') {
    problems.push(
      '"identity" must be a function of the request, such as (request) => request.user?.id',
    );
  }
  if (callerScopes !== undefined && typeof callerScopes !== 'function') {
    problems.push(
      '"callerScopes" must be a function of the request, such as (request) => request.user?.scopes',
    );
  }
  return problems;
}

/** `requestState`: its secret signs the state, so a short one would be guessable. */
function requestStateProblems(requestState: unknown): string[] {
  if (requestState === undefined) return [];
  if (!isOptionsObject(requestState)) {
    return ['"requestState" must be an object such as { secret: process.env.MCP_STATE_SECRET }'];
  }
  const { secret, ttlSeconds } = requestState;
  const length =
    typeof secret === 'string'
      ? Buffer.byteLength(secret)
      : secret instanceof Uint8Array
        ? secret.length
        : 0;
  return found([
    secret !== undefined && length < 32
      ? '"requestState.secret" must be at least 32 bytes, such as a random 64-character hex string'
      : undefined,
    wholeNumberProblem('requestState.ttlSeconds', ttlSeconds),
  ]);
}

/** `name`, `version` and `instructions`: what the server tells a client about itself. */
function identityProblems(name: unknown, version: unknown, instructions: unknown): string[] {
  const problems: string[] = [];
  if (!isNonEmptyString(name))
    problems.push(`"name" must be a non-empty string (got ${JSON.stringify(name)})`);
  if (!isNonEmptyString(version))
    problems.push(`"version" must be a non-empty string (got ${JSON.stringify(version)})`);
  if (instructions !== undefined && typeof instructions !== 'string')
    problems.push('"instructions" must be a string');
  return problems;
}

/** `http`, unless it is left out or `false` (no HTTP transport). */
function httpOptionsProblems(http: unknown): string[] {
  if (http === undefined || http === false) return [];
  if (!isOptionsObject(http)) return ['"http" must be an object ({ path, guards }) or false'];
  const { path, guards, dnsRebindingProtection, legacySessions } = http;
  const problems = httpHostListProblems(http);
  for (const option of [
    'maxBodyBytes',
    'maxJsonDepth',
    'shutdownTimeoutMs',
    'maxStreamsPerCaller',
    'maxListenStreams',
    'maxStreamBufferBytes',
    'bodyTimeoutMs',
    'headersTimeoutMs',
  ] as const) {
    problems.push(...found([wholeNumberProblem(`http.${option}`, http[option])]));
  }
  problems.push(...legacySessionsProblems(legacySessions));
  problems.push(
    ...found([
      booleanProblem('http.dnsRebindingProtection', dnsRebindingProtection),
      booleanProblem('http.leanPath', http.leanPath),
    ]),
  );
  if (path !== undefined && typeof path !== 'string')
    problems.push('"http.path" must be a string such as \'mcp\'');
  if (guards !== undefined) {
    const valid = Array.isArray(guards) && guards.every(isGuard);
    if (!valid) problems.push('"http.guards" must be an array of guard classes or guard instances');
  }
  return problems;
}

/**
 * `http.allowedHosts` (hostnames) and `http.allowedOrigins` (full origins), the lists
 * DNS-rebinding protection checks.
 */
function httpHostListProblems(http: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const examples = {
    allowedHosts: "hostnames such as ['localhost', 'mcp.example.com']",
    allowedOrigins: "origins such as ['https://app.example.com', 'http://localhost:5173']",
  };
  for (const option of ['allowedHosts', 'allowedOrigins'] as const) {
    const list = http[option];
    if (
      list !== undefined &&
      !(Array.isArray(list) && list.every((item) => typeof item === 'string'))
    ) {
      problems.push(`"http.${option}" must be an array of ${examples[option]}`);
    }
  }
  const origins = Array.isArray(http.allowedOrigins) ? (http.allowedOrigins as unknown[]) : [];
  for (const origin of origins) {
    if (typeof origin === 'string' && webOrigin(origin) === undefined) {
      problems.push(
        `"http.allowedOrigins" must list full origins, scheme, host and port as browsers send them in Origin, such as '${origin.includes('://') ? 'https://app.example.com' : `https://${origin}`}' (got ${JSON.stringify(origin)})`,
      );
    }
  }
  return problems;
}

/** `http.legacySessions`: a switch, or the limits of the sessions it turns on. */
function legacySessionsProblems(legacySessions: unknown): string[] {
  if (
    legacySessions !== undefined &&
    typeof legacySessions !== 'boolean' &&
    !isOptionsObject(legacySessions)
  ) {
    return [
      '"http.legacySessions" must be true, false or { idleTimeoutMs?, maxSessions?, maxSessionsPerCaller?, maxStreamsPerSession? }',
    ];
  }
  if (!isOptionsObject(legacySessions)) return [];
  return found(
    (['idleTimeoutMs', 'maxSessions', 'maxSessionsPerCaller', 'maxStreamsPerSession'] as const).map(
      (option) => wholeNumberProblem(`http.legacySessions.${option}`, legacySessions[option]),
    ),
  );
}
