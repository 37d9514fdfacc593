import { describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';

const base = { name: 'catalog', version: '1.0.0' };

/** The problems the validator lists, one per line, without the example. */
function problemsOf(options: unknown): string[] {
  try {
    validateMcpModuleOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid McpModule options:\n/);
    expect(message).toContain("A correct example:\nMcpModule.forRoot({\n  name: 'catalog',");
    return message
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => line.slice(4));
  }
  return [];
}

describe('validateMcpModuleOptions: unknown keys', () => {
  it.each([
    [{ http: { gaurds: [] } }, '`http.gaurds` is not an option; did you mean `http.guards`?'],
    [{ http: { paht: 'mcp' } }, '`http.paht` is not an option; did you mean `http.path`?'],
    [{ pagesize: 10 }, '`pagesize` is not an option; did you mean `pageSize`?'],
    [{ PageSize: 10 }, '`PageSize` is not an option; did you mean `pageSize`?'],
    [{ nmae: 'x' }, '`nmae` is not an option; did you mean `name`?'],
    [{ instruction: 'x' }, '`instruction` is not an option; did you mean `instructions`?'],
    [
      { usGlobalFilters: false },
      '`usGlobalFilters` is not an option; did you mean `useGlobalFilters`?',
    ],
    // A key of another level, by its name: where it belongs.
    [{ path: 'mcp' }, '`path` is not an option; did you mean `http.path`?'],
    [{ guards: [] }, '`guards` is not an option; did you mean `http.guards`?'],
    [{ secret: 'x'.repeat(32) }, '`secret` is not an option; did you mean `requestState.secret`?'],
    [{ http: { pageSize: 10 } }, '`http.pageSize` is not an option; did you mean `pageSize`?'],
    [
      { http: { maxSessions: 5 } },
      '`http.maxSessions` is not an option; did you mean `http.legacySessions.maxSessions`?',
    ],
    // A typo of a key of another level.
    [{ gaurds: [] }, '`gaurds` is not an option; did you mean `http.guards`?'],
    [
      { http: { legacySessions: { idleTimeout: 1000 } } },
      '`http.legacySessions.idleTimeout` is not an option; did you mean `http.legacySessions.idleTimeoutMs`?',
    ],
    [
      { requestState: { ttl: 60, secret: 'x'.repeat(32) } },
      '`requestState.ttl` is not an option; valid options of `requestState` are: secret, ttlSeconds',
    ],
    [
      { requestState: { ttlSecond: 60 } },
      '`requestState.ttlSecond` is not an option; did you mean `requestState.ttlSeconds`?',
    ],
    [
      { schema: { nullableOptional: true } },
      '`schema.nullableOptional` is not an option; did you mean `schema.nullableOptionals`?',
    ],
  ])('%j: %s', (extra, problem) => {
    expect(problemsOf({ ...base, ...extra })).toEqual([problem]);
  });

  it('lists the valid options of the level instead of a bad guess', () => {
    expect(problemsOf({ ...base, foo: 1 })).toEqual([
      '`foo` is not an option; valid options are: name, version, instructions, group, ' +
        'groupVersion, http, callerScopes, identity, useGlobalFilters, pageSize, ' +
        'listTemplatesAsResources, maxUriLength, requestState, schema, auth, telemetry, naming, manifest, tasks, ' +
        'tools, extensions, apps, i18n, scaleOut, discovery, explorer',
    ]);
    expect(problemsOf({ ...base, http: { host: 'localhost' } })).toEqual([
      '`http.host` is not an option; valid options of `http` are: path, guards, allowedHosts, ' +
        'allowedOrigins, dnsRebindingProtection, maxBodyBytes, maxJsonDepth, shutdownTimeoutMs, ' +
        'maxStreamsPerCaller, maxListenStreams, maxStreamBufferBytes, bodyTimeoutMs, ' +
        'headersTimeoutMs, legacySessions, leanPath, publicUrl',
    ]);
    expect(problemsOf({ ...base, http: { legacySessions: { ttl: 1 } } })).toEqual([
      '`http.legacySessions.ttl` is not an option; valid options of `http.legacySessions` are: ' +
        'idleTimeoutMs, maxSessions, maxSessionsPerCaller, maxStreamsPerSession',
    ]);
  });

  it('reports every problem at once, unknown keys and wrong values alike', () => {
    expect(
      problemsOf({
        name: '',
        version: '1',
        paht: 'mcp',
        pageSize: 0,
        http: { gaurds: [], maxBodyBytes: -1 },
      }),
    ).toEqual([
      '`paht` is not an option; did you mean `http.path`?',
      '`http.gaurds` is not an option; did you mean `http.guards`?',
      '"pageSize" must be a positive integer (got 0)',
      '"name" must be a non-empty string (got "")',
      '"http.maxBodyBytes" must be a positive whole number (got -1)',
    ]);
  });

  it('refuses a bound of the endpoint that is not a positive whole number', () => {
    expect(
      problemsOf({
        ...base,
        http: { maxListenStreams: 0, maxStreamBufferBytes: 1.5, bodyTimeoutMs: '30s' },
      }),
    ).toEqual([
      '"http.maxListenStreams" must be a positive whole number (got 0)',
      '"http.maxStreamBufferBytes" must be a positive whole number (got 1.5)',
      '"http.bodyTimeoutMs" must be a positive whole number (got "30s")',
    ]);
  });

  it('refuses a key even when its value is undefined, and names of Object.prototype', () => {
    expect(problemsOf({ ...base, http: { paht: undefined } })).toEqual([
      '`http.paht` is not an option; did you mean `http.path`?',
    ]);
    expect(problemsOf({ ...base, constructor: 1, toString: 'x' })).toHaveLength(2);
  });

  it('accepts every option of the interface', () => {
    const options = {
      ...base,
      instructions: 'Use the catalog.',
      group: 'catalog',
      groupVersion: '2',
      http: {
        path: 'mcp',
        guards: [class Guard {}],
        allowedHosts: ['localhost'],
        allowedOrigins: ['http://localhost:5173'],
        dnsRebindingProtection: true,
        maxBodyBytes: 1024,
        maxJsonDepth: 10,
        shutdownTimeoutMs: 100,
        maxListenStreams: 20_000,
        maxStreamBufferBytes: 65_536,
        bodyTimeoutMs: 5000,
        headersTimeoutMs: 10_000,
        legacySessions: { idleTimeoutMs: 1000, maxSessions: 10 },
      },
      callerScopes: () => [],
      useGlobalFilters: false,
      pageSize: 10,
      listTemplatesAsResources: true,
      maxUriLength: 8192,
      requestState: { secret: new Uint8Array(32), ttlSeconds: 60 },
      schema: { nullableOptionals: true },
    };
    expect(validateMcpModuleOptions(options)).toBe(options);
    expect(problemsOf({ ...base, http: false, schema: {} })).toEqual([]);
    expect(problemsOf({ ...base, http: { legacySessions: true } })).toEqual([]);
  });

  it('does not look into values that are not option objects', () => {
    // An http: false server, a secret given as bytes, guard instances with fields of their own.
    const guard = { canActivate: () => true, token: 'x' };
    expect(
      problemsOf({
        ...base,
        http: { guards: [guard] },
        requestState: { secret: Buffer.alloc(32) },
      }),
    ).toEqual([]);
  });
});

describe('validateMcpModuleOptions: values', () => {
  it.each([
    [{ schema: { nullableOptionals: 'yes' } }, '"schema.nullableOptionals" must be true or false'],
    [{ schema: true }, '"schema" must be an object such as { nullableOptionals: true }'],
    [{ listTemplatesAsResources: 1 }, '"listTemplatesAsResources" must be true or false'],
    [
      { maxUriLength: 0 },
      '"maxUriLength" must be a positive integer, a number of characters such as 4096 (got 0)',
    ],
    [
      { maxUriLength: '4096' },
      '"maxUriLength" must be a positive integer, a number of characters such as 4096 (got "4096")',
    ],
    [
      { requestState: 'secret' },
      '"requestState" must be an object such as { secret: process.env.MCP_STATE_SECRET }',
    ],
    [
      { requestState: { ttlSeconds: 0 } },
      '"requestState.ttlSeconds" must be a positive whole number (got 0)',
    ],
    [
      { http: { legacySessions: { maxSessions: 1.5 } } },
      '"http.legacySessions.maxSessions" must be a positive whole number (got 1.5)',
    ],
    [
      { http: { legacySessions: { maxStreamsPerSession: 0 } } },
      '"http.legacySessions.maxStreamsPerSession" must be a positive whole number (got 0)',
    ],
    [{ http: [] }, '"http" must be an object ({ path, guards }) or false'],
  ])('%j: %s', (extra, problem) => {
    expect(problemsOf({ ...base, ...extra })).toEqual([problem]);
  });

  it('refuses options that are not an object', () => {
    for (const options of [undefined, null, 'catalog', ['catalog']]) {
      expect(problemsOf(options)).toEqual(['the options must be an object']);
    }
  });
});
