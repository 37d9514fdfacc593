import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { invalidOptionsMessage } from '../mcp.messages.js';
import { authOptionsProblems } from './auth-options.validator.js';
import { telemetryOptionsProblems } from './telemetry-options.validator.js';
import { namingOptionsProblems } from './naming-options.validator.js';
import { tasksOptionsProblems } from './tasks-options.validator.js';
import { i18nOptionsProblems } from './i18n-options.validator.js';
import { scaleOutOptionsProblems } from './scale-out-options.validator.js';
import { isNonEmptyString } from '../utils/value-checks.util.js';
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
  const problems = unknownOptionProblems(options, MCP_MODULE_OPTION_KEYS);
  const check = (problem: string | undefined) => problem !== undefined && problems.push(problem);
  const {
    name,
    version,
    instructions,
    http,
    callerScopes,
    useGlobalFilters,
    pageSize,
    listTemplatesAsResources,
    requestState,
    schema,
    group,
    groupVersion,
  } = options;
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
  if (pageSize !== undefined && !isPositiveInteger(pageSize)) {
    problems.push(`"pageSize" must be a positive integer (got ${JSON.stringify(pageSize)})`);
  }
  if (requestState !== undefined && !isOptionsObject(requestState)) {
    problems.push(
      '"requestState" must be an object such as { secret: process.env.MCP_STATE_SECRET }',
    );
  } else if (requestState !== undefined) {
    const { secret, ttlSeconds } = requestState;
    const length =
      typeof secret === 'string'
        ? Buffer.byteLength(secret)
        : secret instanceof Uint8Array
          ? secret.length
          : 0;
    if (secret !== undefined && length < 32) {
      problems.push(
        '"requestState.secret" must be at least 32 bytes, such as a random 64-character hex string',
      );
    }
    check(wholeNumberProblem('requestState.ttlSeconds', ttlSeconds));
  }
  if (schema !== undefined && !isOptionsObject(schema)) {
    problems.push('"schema" must be an object such as { nullableOptionals: true }');
  } else {
    check(booleanProblem('schema.nullableOptionals', schema?.nullableOptionals));
  }
  check(booleanProblem('listTemplatesAsResources', listTemplatesAsResources));
  check(booleanProblem('useGlobalFilters', useGlobalFilters));
  if (callerScopes !== undefined && typeof callerScopes !== 'function') {
    problems.push(
      '"callerScopes" must be a function of the request, such as (request) => request.user?.scopes',
    );
  }
  if (!isNonEmptyString(name))
    problems.push(`"name" must be a non-empty string (got ${JSON.stringify(name)})`);
  if (!isNonEmptyString(version))
    problems.push(`"version" must be a non-empty string (got ${JSON.stringify(version)})`);
  if (instructions !== undefined && typeof instructions !== 'string')
    problems.push('"instructions" must be a string');
  if (http !== undefined && http !== false) {
    if (!isOptionsObject(http)) {
      problems.push('"http" must be an object ({ path, guards }) or false');
    } else {
      const { path, guards, dnsRebindingProtection, legacySessions } = http;
      for (const option of ['allowedHosts', 'allowedOrigins'] as const) {
        const list = http[option];
        if (
          list !== undefined &&
          !(Array.isArray(list) && list.every((item) => typeof item === 'string'))
        ) {
          problems.push(
            `"http.${option}" must be an array of hostnames such as ['localhost', 'mcp.example.com']`,
          );
        }
      }
      for (const option of ['maxBodyBytes', 'maxJsonDepth', 'shutdownTimeoutMs'] as const) {
        check(wholeNumberProblem(`http.${option}`, http[option]));
      }
      if (
        legacySessions !== undefined &&
        typeof legacySessions !== 'boolean' &&
        !isOptionsObject(legacySessions)
      ) {
        problems.push(
          '"http.legacySessions" must be true, false or { idleTimeoutMs?, maxSessions? }',
        );
      } else if (isOptionsObject(legacySessions)) {
        for (const option of ['idleTimeoutMs', 'maxSessions'] as const) {
          check(wholeNumberProblem(`http.legacySessions.${option}`, legacySessions[option]));
        }
      }
      check(booleanProblem('http.dnsRebindingProtection', dnsRebindingProtection));
      check(booleanProblem('http.leanPath', http.leanPath));
      if (path !== undefined && typeof path !== 'string')
        problems.push('"http.path" must be a string such as \'mcp\'');
      if (guards !== undefined) {
        const valid = Array.isArray(guards) && guards.every(isGuard);
        if (!valid)
          problems.push('"http.guards" must be an array of guard classes or guard instances');
      }
    }
  }
  problems.push(...authOptionsProblems(options.auth));
  problems.push(...telemetryOptionsProblems(options.telemetry));
  problems.push(...namingOptionsProblems(options.naming, options.manifest));
  problems.push(...tasksOptionsProblems(options.tasks));
  problems.push(...i18nOptionsProblems(options.i18n));
  problems.push(...scaleOutOptionsProblems(options));
  if (problems.length > 0) throw new McpConfigurationError(invalidOptionsMessage(problems));
  return options as unknown as McpModuleOptions;
}
