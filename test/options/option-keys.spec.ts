import type { StdioBootstrapOptions } from 'nestjs-mcp/stdio';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  MCP_MODULE_ASYNC_OPTION_KEYS,
  MCP_MODULE_OPTION_KEYS,
  STDIO_BOOTSTRAP_OPTION_KEYS,
  type OptionKeys,
} from '../../lib/options/option-keys.js';
import { telemetryOptionsProblems } from '../../lib/options/telemetry-options.validator.js';
import { unknownOptionProblems } from '../../lib/options/unknown-options.js';

// A key no option is close to, so that the message lists the valid options of its level.
const FAR = 'qqqqqqqqqqqqqqqqqqqq';

/** The options a level lists in the message of an unknown key there. */
function listedAt(keys: OptionKeys, level: string[]): string[] {
  const options = level.reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {
    [FAR]: 1,
  });
  const [problem] = unknownOptionProblems(options, keys);
  const listed = /are: (.*)$/.exec(problem ?? '')?.[1];
  if (listed === undefined) throw new Error(`no list of valid options in ${problem}`);
  return listed.split(', ');
}

describe('the option keys, as the messages of an unknown key list them', () => {
  it('list the options of McpModule.forRoot() in the order of its interface', () => {
    expect(listedAt(MCP_MODULE_OPTION_KEYS, [])).toEqual([
      'name',
      'version',
      'instructions',
      'group',
      'groupVersion',
      'http',
      'callerScopes',
      'identity',
      'useGlobalFilters',
      'pageSize',
      'listTemplatesAsResources',
      'maxUriLength',
      'requestState',
      'schema',
      'auth',
      'telemetry',
      'naming',
      'manifest',
      'tasks',
      'tools',
      'extensions',
      'apps',
      'i18n',
      'scaleOut',
      'discovery',
      'explorer',
    ]);
  });

  it('list the keys of each nested level', () => {
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['http'])).toEqual([
      'path',
      'guards',
      'allowedHosts',
      'allowedOrigins',
      'dnsRebindingProtection',
      'maxBodyBytes',
      'maxJsonDepth',
      'shutdownTimeoutMs',
      'maxStreamsPerCaller',
      'maxListenStreams',
      'maxStreamBufferBytes',
      'bodyTimeoutMs',
      'headersTimeoutMs',
      'legacySessions',
      'leanPath',
      'publicUrl',
    ]);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['http', 'legacySessions'])).toEqual([
      'idleTimeoutMs',
      'maxSessions',
      'maxSessionsPerCaller',
      'maxStreamsPerSession',
    ]);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['auth', 'introspection'])).toEqual([
      'issuer',
      'endpoint',
      'clientId',
      'clientSecret',
      'cacheTtlSeconds',
    ]);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['tasks'])).toEqual([
      'store',
      'ttlMs',
      'pollIntervalMs',
      'maxTasks',
      'queue',
    ]);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['tools'])).toEqual(['timeoutMs', 'concurrency']);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['tools', 'concurrency'])).toEqual([
      'max',
      'perCaller',
      'queue',
    ]);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['i18n'])).toEqual([
      'defaultLocale',
      'locales',
      'translations',
    ]);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['requestState'])).toEqual(['secret', 'ttlSeconds']);
    expect(listedAt(MCP_MODULE_OPTION_KEYS, ['schema'])).toEqual(['nullableOptionals']);
  });

  it('list the options of forRootAsync() and of bootstrapStdio()', () => {
    expect(listedAt(MCP_MODULE_ASYNC_OPTION_KEYS, [])).toEqual([
      'imports',
      'useFactory',
      'inject',
      'useClass',
      'useExisting',
      'extraProviders',
      'provideInjectionTokensFrom',
    ]);
    expect(listedAt(STDIO_BOOTSTRAP_OPTION_KEYS, [])).toEqual([
      'request',
      'guards',
      'server',
      'logger',
      'legacy',
      'exitOnClose',
      'locale',
      'stdin',
      'stdout',
    ]);
  });
});

describe('the option keys, as the unknown-key check reads them', () => {
  it('have the keys of a nested level checked, at any depth', () => {
    expect(
      unknownOptionProblems(
        {
          http: { legacySessions: { maxSession: 5 } },
          auth: { introspection: { clientID: 'mcp' } },
          telemetry: { recordArgs: true },
        },
        MCP_MODULE_OPTION_KEYS,
      ),
    ).toEqual([
      '`http.legacySessions.maxSession` is not an option; did you mean `http.legacySessions.maxSessions`?',
      '`auth.introspection.clientID` is not an option; did you mean `auth.introspection.clientId`?',
      '`telemetry.recordArgs` is not an option; valid options of `telemetry` are: recordArguments, resourceUriInSpanName, phaseSpans',
    ]);
  });

  it('leave the inside of an option taken whole to its own validator', () => {
    // `naming`, `scaleOut` and a task store are values (objects of the app's own), not levels.
    expect(
      unknownOptionProblems(
        {
          naming: { anything: true },
          scaleOut: { instanceId: 'a', whatever: 1 },
          tasks: { store: { custom: 1 } },
          http: { guards: [{ canActivate: () => true, extra: 1 }] },
        },
        MCP_MODULE_OPTION_KEYS,
      ),
    ).toEqual([]);
  });

  it('skip a nested level that is not an object (http: false)', () => {
    expect(unknownOptionProblems({ http: false, auth: 'x' }, MCP_MODULE_OPTION_KEYS)).toEqual([]);
  });
});

describe('TELEMETRY_OPTION_KEYS', () => {
  it('are all switches: the telemetry validator asks each for true or false', () => {
    expect(
      telemetryOptionsProblems({
        recordArguments: 1,
        resourceUriInSpanName: 'yes',
        phaseSpans: {},
      }),
    ).toEqual([
      '"telemetry.recordArguments" must be true or false',
      '"telemetry.resourceUriInSpanName" must be true or false',
      '"telemetry.phaseSpans" must be true or false',
    ]);
  });
});

describe('STDIO_BOOTSTRAP_OPTION_KEYS', () => {
  it('describe every key of StdioBootstrapOptions for its validator, and no other', () => {
    // The key lists of McpModule options are checked with `satisfies` where they are
    // declared; this one's interface belongs to a later stage (transports), so the check is
    // here, a type-level test that `npm run typecheck` runs.
    expectTypeOf<keyof typeof STDIO_BOOTSTRAP_OPTION_KEYS>().toEqualTypeOf<
      keyof StdioBootstrapOptions
    >();
  });
});
