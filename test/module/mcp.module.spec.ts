import { Injectable, Logger, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { McpModule, McpTool, type McpModuleOptions } from 'nestjs-mcp';
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
class McpOptionsFactory {
  constructor(private readonly config: ConfigLike) {}
  createMcpOptions(): McpModuleOptions {
    return { name: this.config.name, version: '3.0.0', http: { path: 'tools' } };
  }
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
      McpModule.forRootAsync({ imports: [ConfigLikeModule], useClass: McpOptionsFactory }),
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
      providers: [McpOptionsFactory],
      exports: [McpOptionsFactory],
    })
    class OptionsModule {}
    await boot(
      McpModule.forRootAsync({ imports: [OptionsModule], useExisting: McpOptionsFactory }),
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
      '"http.allowedOrigins" must be an array of hostnames',
    ],
    [
      { name: 'x', version: '1', http: { legacySessions: 'yes' } },
      '"http.legacySessions" must be true, false or { idleTimeoutMs?, maxSessions? }',
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
    expect((error as Error).message).toContain('Invalid McpModule options');
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
