import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { invalidOptionsMessage } from '../mcp.messages.js';

const isNonEmptyString = (value: unknown): value is string =>
  typeof value === 'string' && value.trim() !== '';

const isPositiveInteger = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) > 0;

/** Checks the options at bootstrap, so that a mistake stops the app with a correct example. */
export function validateMcpModuleOptions(options: unknown): McpModuleOptions {
  const problems: string[] = [];
  if (typeof options !== 'object' || options === null) {
    throw new McpConfigurationError(invalidOptionsMessage(['the options must be an object']));
  }
  const {
    name,
    version,
    instructions,
    http,
    callerScopes,
    useGlobalFilters,
    pageSize,
    requestState,
    group,
    groupVersion,
  } = options as Record<string, unknown>;
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
  if (requestState !== undefined) {
    const secret = (requestState as { secret?: unknown } | null)?.secret;
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
  }
  if (useGlobalFilters !== undefined && typeof useGlobalFilters !== 'boolean') {
    problems.push('"useGlobalFilters" must be true or false');
  }
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
    if (typeof http !== 'object' || http === null) {
      problems.push('"http" must be an object ({ path, guards }) or false');
    } else {
      const httpOptions = http as Record<string, unknown>;
      const { path, guards, dnsRebindingProtection, legacySessions } = httpOptions;
      for (const option of ['allowedHosts', 'allowedOrigins'] as const) {
        const list = httpOptions[option];
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
        const value = httpOptions[option];
        if (value !== undefined && !isPositiveInteger(value)) {
          problems.push(
            `"http.${option}" must be a positive whole number (got ${JSON.stringify(value)})`,
          );
        }
      }
      if (
        legacySessions !== undefined &&
        typeof legacySessions !== 'boolean' &&
        (typeof legacySessions !== 'object' || legacySessions === null)
      ) {
        problems.push(
          '"http.legacySessions" must be true, false or { idleTimeoutMs?, maxSessions? }',
        );
      }
      if (dnsRebindingProtection !== undefined && typeof dnsRebindingProtection !== 'boolean') {
        problems.push('"http.dnsRebindingProtection" must be true or false');
      }
      if (path !== undefined && typeof path !== 'string')
        problems.push('"http.path" must be a string such as \'mcp\'');
      if (guards !== undefined) {
        const valid =
          Array.isArray(guards) &&
          guards.every(
            (g) =>
              typeof g === 'function' ||
              (typeof g === 'object' && g !== null && 'canActivate' in g),
          );
        if (!valid)
          problems.push('"http.guards" must be an array of guard classes or guard instances');
      }
    }
  }
  if (problems.length > 0) throw new McpConfigurationError(invalidOptionsMessage(problems));
  return options as McpModuleOptions;
}
