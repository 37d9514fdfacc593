import {
  Inject,
  Injectable,
  Logger,
  Module,
  type CanActivate,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import {
  MCP_MODULE_OPTIONS,
  McpConfigurationError,
  McpModule,
  McpTool,
  type McpModuleAsyncOptions,
  type McpModuleOptions,
  type McpOptionsFactory,
} from 'nestjs-mcp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postModern } from '../support/mcp-post.js';

class PingDto {
  @IsString()
  text!: string;
}

@Injectable()
class PingService {
  @McpTool({ description: 'Answers pong.' })
  ping(input: PingDto) {
    return `pong ${input.text}`;
  }
}

@Injectable()
class ConfigLike {
  readonly name = 'from-config';
}

@Module({ providers: [ConfigLike], exports: [ConfigLike] })
class ConfigLikeModule {}

@Injectable()
class OptionsFromConfig implements McpOptionsFactory {
  constructor(private readonly config: ConfigLike) {}
  createMcpOptions(): McpModuleOptions {
    return { name: this.config.name, version: '3.0.0', http: { path: 'tools' } };
  }
}

/** Options with a typo, as a config file or an untyped factory may give them. */
const MISTYPED = {
  name: 'x',
  version: '1',
  http: { gaurds: [] },
} as unknown as McpModuleOptions;

@Injectable()
class MistypedOptions implements McpOptionsFactory {
  async createMcpOptions(): Promise<McpModuleOptions> {
    return MISTYPED;
  }
}

@Module({ providers: [MistypedOptions], exports: [MistypedOptions] })
class MistypedOptionsModule {}

/** The error that bootstrapping `mcpModule` rejects with. */
async function bootError(mcpModule: ReturnType<typeof McpModule.forRoot>): Promise<Error> {
  const error = await boot(mcpModule).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpConfigurationError);
  return error as Error;
}

let app: INestApplication | undefined;

async function boot(
  mcpModule: ReturnType<typeof McpModule.forRoot>,
  providers: unknown[] = [PingService],
) {
  const moduleRef = await Test.createTestingModule({
    imports: [mcpModule],
    providers: providers as never[],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

async function discover(path: string) {
  return postModern(app!, path, 'server/discover');
}

afterEach(async () => {
  await app?.close();
  app = undefined;
  vi.restoreAllMocks();
});

describe('McpModule', () => {
  it('forRoot serves the tools at /mcp by default', async () => {
    await boot(McpModule.forRoot({ name: 'pinger', version: '1.0.0' }));
    const { message } = await postModern(app!, '/mcp', 'tools/call', {
      name: 'ping',
      arguments: { text: 'x' },
    });
    expect(message.result.content).toEqual([{ type: 'text', text: 'pong x' }]);
  });

  it('forRoot with http: false serves no endpoint', async () => {
    await boot(McpModule.forRoot({ name: 'pinger', version: '1.0.0', http: false }));
    expect((await discover('/mcp')).status).toBe(404);
  });

  it('forRootAsync with useFactory and inject takes the options, path included, from the factory', async () => {
    await boot(
      McpModule.forRootAsync({
        imports: [ConfigLikeModule],
        inject: [ConfigLike],
        useFactory: (config: ConfigLike) => ({
          name: config.name,
          version: '2.0.0',
          http: { path: 'agents/mcp' },
        }),
      }),
    );
    const { message } = await discover('/agents/mcp');
    expect(message.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'from-config',
      version: '2.0.0',
    });
    expect((await discover('/mcp')).status).toBe(404);
  });

  it('forRootAsync with useClass calls createMcpOptions', async () => {
    await boot(
      McpModule.forRootAsync({ imports: [ConfigLikeModule], useClass: OptionsFromConfig }),
    );
    const { message } = await discover('/tools');
    expect(message.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'from-config',
      version: '3.0.0',
    });
  });

  it('forRootAsync with useExisting reuses a provider of an imported module', async () => {
    @Module({
      imports: [ConfigLikeModule],
      providers: [OptionsFromConfig],
      exports: [OptionsFromConfig],
    })
    class OptionsModule {}
    await boot(
      McpModule.forRootAsync({ imports: [OptionsModule], useExisting: OptionsFromConfig }),
    );
    expect((await discover('/tools')).status).toBe(200);
  });

  it('forRootAsync with http: false makes the route answer 404', async () => {
    await boot(
      McpModule.forRootAsync({
        useFactory: () => ({ name: 'a', version: '1', http: false as const }),
      }),
    );
    expect((await discover('/mcp')).status).toBe(404);
  });

  it.each([
    [{ version: '1.0.0' }, '"name" must be a non-empty string'],
    [{ name: 'x', version: 1 }, '"version" must be a non-empty string'],
    [{ name: 'x', version: '1', http: { path: 3 } }, '"http.path" must be a string'],
    [
      { name: 'x', version: '1', http: { guards: ['nope'] } },
      '"http.guards" must be an array of guard classes or guard instances',
    ],
    [
      { name: 'x', version: '1', http: { maxBodyBytes: 0 } },
      '"http.maxBodyBytes" must be a positive whole number (got 0)',
    ],
    [
      { name: 'x', version: '1', http: { shutdownTimeoutMs: 1.5 } },
      '"http.shutdownTimeoutMs" must be a positive whole number (got 1.5)',
    ],
    [
      { name: 'x', version: '1', http: { allowedOrigins: ['a', 1] } },
      '"http.allowedOrigins" must be an array of origins such as',
    ],
    [
      { name: 'x', version: '1', http: { legacySessions: 'yes' } },
      '"http.legacySessions" must be true, false or { idleTimeoutMs?, maxSessions?, maxSessionsPerCaller?, maxStreamsPerSession? }',
    ],
    [{ name: 'x', version: '1', pageSize: 0 }, '"pageSize" must be a positive integer (got 0)'],
    [
      { name: 'x', version: '1', requestState: { secret: 'short' } },
      '"requestState.secret" must be at least 32 bytes',
    ],
  ])('fails bootstrap on invalid options %j with a correct example', async (options, problem) => {
    const error = await boot(McpModule.forRoot(options as McpModuleOptions)).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(problem);
    expect((error as Error).message).toContain("McpModule.forRoot({\n  name: 'catalog',");
  });

  it('fails bootstrap on options from an async factory too', async () => {
    const error = await boot(
      McpModule.forRootAsync({ useFactory: () => ({ name: '', version: '1' }) }),
    ).catch((e: Error) => e);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect((error as Error).message).toContain('Invalid McpModule options');
  });

  describe('refuses an unknown key, naming the option it was meant to be', () => {
    const problem = '`http.gaurds` is not an option; did you mean `http.guards`?';

    it.each<[string, () => ReturnType<typeof McpModule.forRoot>]>([
      ['forRoot', () => McpModule.forRoot(MISTYPED)],
      [
        'forRootAsync with useFactory',
        () => McpModule.forRootAsync({ useFactory: () => MISTYPED }),
      ],
      [
        'forRootAsync with an async useFactory and inject',
        () =>
          McpModule.forRootAsync({
            imports: [ConfigLikeModule],
            inject: [ConfigLike],
            useFactory: async (config: ConfigLike) => ({ ...MISTYPED, name: config.name }),
          }),
      ],
      ['forRootAsync with useClass', () => McpModule.forRootAsync({ useClass: MistypedOptions })],
      [
        'forRootAsync with useExisting',
        () =>
          McpModule.forRootAsync({
            imports: [MistypedOptionsModule],
            useExisting: MistypedOptions,
          }),
      ],
    ])('%s', async (_form, mcpModule) => {
      const error = await bootError(mcpModule());
      expect(error.message).toContain(`Invalid McpModule options:\n  - ${problem}\n`);
      expect(error.message).toContain("McpModule.forRoot({\n  name: 'catalog',");
    });

    it('so that an endpoint never runs without the guard meant for it', async () => {
      class BearerGuard implements CanActivate {
        canActivate() {
          return false;
        }
      }
      const error = await bootError(
        McpModule.forRoot({
          name: 'x',
          version: '1',
          http: { gaurds: [BearerGuard] },
        } as unknown as McpModuleOptions),
      );
      expect(error.message).toContain(problem);
      expect(app).toBeUndefined();
    });

    it('in NestFactory.create too', async () => {
      @Module({ imports: [McpModule.forRoot(MISTYPED)] })
      class AppModule {}
      const error = await NestFactory.create(AppModule, {
        logger: false,
        abortOnError: false,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpConfigurationError);
      expect((error as Error).message).toContain(problem);
    });

    it('with every problem at once', async () => {
      const error = await bootError(
        McpModule.forRoot({
          name: 'x',
          version: '1',
          pagesize: 10,
          path: 'mcp',
          foo: true,
        } as unknown as McpModuleOptions),
      );
      expect(error.message).toContain(
        'Invalid McpModule options:\n' +
          '  - `pagesize` is not an option; did you mean `pageSize`?\n' +
          '  - `path` is not an option; did you mean `http.path`?\n' +
          '  - `foo` is not an option; valid options are: name, version,',
      );
    });
  });

  it('gives the checked options to everything that injects them, and nothing else', async () => {
    const seen: unknown[] = [];
    @Injectable()
    class Reader {
      constructor(@Inject(MCP_MODULE_OPTIONS) options: McpModuleOptions) {
        seen.push(options);
      }
    }
    const valid = { name: 'x', version: '1', useGlobalFilters: false };
    await boot(McpModule.forRootAsync({ useFactory: () => valid, extraProviders: [Reader] }));
    expect(seen).toEqual([valid]);
    await app!.close();
    app = undefined;
    seen.length = 0;

    const options = { name: 'x', version: '1', useGlobalFilters: 'no' } as never;
    const error = await bootError(
      McpModule.forRootAsync({ useFactory: () => options, extraProviders: [Reader] }),
    );
    expect(error.message).toContain('"useGlobalFilters" must be true or false');
    // Checked in the options provider itself: no provider (McpPipelineFactory, which reads
    // useGlobalFilters, or one of the app) is ever given the unchecked object. (Nest still
    // builds dependents of a failed provider, with null, after the bootstrap has failed.)
    expect(seen).not.toContain(options);
  });

  it('forRootAsync registers extraProviders in the module, for the factory to inject', async () => {
    const TOKEN = Symbol('server name');
    await boot(
      McpModule.forRootAsync({
        extraProviders: [{ provide: TOKEN, useValue: 'from-extra' }],
        inject: [TOKEN],
        useFactory: (name: string) => ({ name, version: '1.0.0' }),
      }),
    );
    const { message } = await discover('/mcp');
    expect(message.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'from-extra',
    });
  });

  it.each<[unknown, string]>([
    [{}, 'one of "useFactory", "useClass" or "useExisting" must give the options'],
    [
      { useFactroy: () => ({ name: 'x', version: '1' }) },
      '`useFactroy` is not an option; did you mean `useFactory`?',
    ],
    [
      { useFactory: () => ({ name: 'x', version: '1' }), useClass: OptionsFromConfig },
      'only one of "useFactory", "useClass" and "useExisting" may be given (got "useFactory" and "useClass")',
    ],
    [
      { useClass: 'OptionsFromConfig' },
      '"useClass" must be a class with a createMcpOptions() method',
    ],
    [{ useFactory: () => ({}), inject: ConfigLike }, '"inject" must be an array'],
    [
      { name: 'x', useFactory: () => ({ name: 'x', version: '1' }) },
      '`name` is not an option; valid options are: imports, useFactory, inject, useClass, ' +
        'useExisting, extraProviders, provideInjectionTokensFrom',
    ],
  ])('forRootAsync fails bootstrap on its own invalid options %j', async (options, problem) => {
    const error = await bootError(McpModule.forRootAsync(options as McpModuleAsyncOptions));
    expect(error.message).toContain(`Invalid McpModule.forRootAsync() options:\n  - ${problem}\n`);
    expect(error.message).toContain('A correct example:\nMcpModule.forRootAsync({');
  });

  it('fails bootstrap on a tool name the spec forbids, naming Class.method', async () => {
    @Injectable()
    class BadName {
      @McpTool({ name: 'has space', description: 'x' })
      run() {}
    }
    const error = await boot(McpModule.forRoot({ name: 'x', version: '1' }), [BadName]).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toContain(
      'The tool name "has space" of BadName.run is not allowed',
    );
  });

  it('fails bootstrap on a duplicate tool name, naming both methods', async () => {
    @Injectable()
    class First {
      @McpTool({ description: 'x' })
      doIt() {}
    }
    @Injectable()
    class Second {
      @McpTool({ name: 'do_it', description: 'x' })
      other() {}
    }
    const error = await boot(McpModule.forRoot({ name: 'x', version: '1' }), [First, Second]).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toContain(
      'The tool name "do_it" is used by First.doIt and Second.other',
    );
  });

  it('fails bootstrap on a parameter without a DTO class, saying what to do', async () => {
    @Injectable()
    class Untyped {
      @McpTool({ description: 'x' })
      run(_input: { a: string }) {}
    }
    const error = await boot(McpModule.forRoot({ name: 'x', version: '1' }), [Untyped]).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toContain(
      'Parameter 0 of Untyped.run has no DTO class (its type is Object)',
    );
  });

  it('warns at bootstrap about a tool without a description, naming the method', async () => {
    const warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    @Injectable()
    class Undocumented {
      @McpTool()
      listThings() {}
    }
    await boot(McpModule.forRoot({ name: 'x', version: '1' }), [Undocumented]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(
        'The tool "list_things" (Undocumented.listThings) has no description',
      ),
    );
  });
});
