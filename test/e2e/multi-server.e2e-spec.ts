import {
  type CanActivate,
  type ExecutionContext,
  Injectable,
  Module,
  UnauthorizedException,
} from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpGroup, McpModule, McpTool } from 'nestjs-mcp';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS } from '../support/mcp-clients.js';

class SearchDto {
  @IsString()
  text!: string;
}

/** A bearer check per endpoint: each server has its own callers. */
function bearerGuard(token: string): CanActivate {
  return {
    canActivate(context: ExecutionContext) {
      const request = context.switchToHttp().getRequest<{ headers: Record<string, string> }>();
      if (request.headers.authorization !== `Bearer ${token}`) {
        throw new UnauthorizedException('Wrong token for this MCP server');
      }
      return true;
    },
  };
}

/** Ungrouped: only on the default server. */
@Injectable()
class BackOfficeTools {
  @McpTool({ description: 'Reindexes the catalog.' })
  reindex() {
    return 'reindexed';
  }
}

@McpGroup('catalog')
@Injectable()
class CatalogTools {
  @McpTool({ description: 'Searches products (version 1).', version: '1' })
  search(query: SearchDto) {
    return `v1 results for ${query.text}`;
  }

  @McpTool({ description: 'Searches products (version 2).', name: 'search', version: '2' })
  searchV2(query: SearchDto) {
    return `v2 results for ${query.text}`;
  }

  @McpTool({ description: 'Recommends products.', version: ['2', '3'] })
  recommend() {
    return 'recommended';
  }

  @McpTool({ description: 'Lists categories, in every version.' })
  categories() {
    return 'books, bikes';
  }
}

/** The app of docs/servers.md. */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'back-office',
      version: '1.0.0',
      http: { path: 'mcp/admin', guards: [bearerGuard('admin-token')] },
    }),
    McpModule.forRoot({
      name: 'catalog-v2',
      version: '2.0.0',
      group: 'catalog',
      groupVersion: '2',
      http: { path: 'mcp/catalog/v2', guards: [bearerGuard('catalog-token')] },
    }),
  ],
  providers: [BackOfficeTools, CatalogTools],
})
class MultiServerAppModule {}

const SERVERS = {
  admin: {
    path: 'mcp/admin',
    token: 'admin-token',
    name: 'back-office',
    version: '1.0.0',
    tools: ['reindex'],
    call: ['reindex', {}, 'reindexed'],
    foreign: 'recommend',
  },
  catalog: {
    path: 'mcp/catalog/v2',
    token: 'catalog-token',
    name: 'catalog-v2',
    version: '2.0.0',
    tools: ['categories', 'recommend', 'search'],
    call: ['search', { text: 'lamp' }, 'v2 results for lamp'],
    foreign: 'reindex',
  },
} as const;

describe.each(ADAPTERS)('Several MCP servers in one app (%s)', (adapter) => {
  let running: RunningApp;
  const urlOf = (path: string) => new URL(path, running.url);

  beforeAll(async () => {
    running = await startApp(MultiServerAppModule, { adapter, mcpPath: 'mcp/' });
  });

  afterAll(async () => {
    await running?.close();
  });

  // The SDK clients themselves read the server's identity from the handshake.
  describe.each(CLIENTS)('with the $era', ({ connect }) => {
    it.each(Object.entries(SERVERS))(
      'the %s endpoint introduces itself with its own name and version',
      async (_, server) => {
        const client = await connect(urlOf(`/${server.path}`), server.token);
        try {
          expect(client.sdk.getServerVersion()).toMatchObject({
            name: server.name,
            version: server.version,
          });
        } finally {
          await client.close();
        }
      },
    );
  });

  describe.each(['2025-11-25', '2026-07-28'] as const)('on %s', (protocolVersion) => {
    let mcp: McpTestClient;

    beforeAll(async () => {
      mcp = await McpTestClient.connect(running.app, {
        server: SERVERS.admin.name,
        protocolVersion,
        headers: { authorization: `Bearer ${SERVERS.admin.token}` },
      });
    });

    afterAll(async () => {
      await mcp?.close();
    });

    /** The client of one server, with that server's token. */
    const clientOf = (server: (typeof SERVERS)[keyof typeof SERVERS]) =>
      mcp.onServer(server.name).as({ authorization: `Bearer ${server.token}` });

    describe.each(Object.entries(SERVERS))('the %s endpoint', (_, server) => {
      it('lists only its own tools', async () => {
        const { result } = await clientOf(server).listTools().assertOk();
        expect(result?.tools.map((tool) => tool.name).toSorted()).toEqual(server.tools);
      });

      it('calls its own tools', async () => {
        const [name, args, text] = server.call;
        await clientOf(server).callTool(name, args).assertOk().assertText(text);
      });

      it('answers a tool of the other server as an unknown tool (-32602)', async () => {
        await clientOf(server).callTool(server.foreign).assertError(-32602);
      });
    });

    it("keeps each endpoint behind its own guards: the other server's token is refused", async () => {
      await mcp
        .onServer(SERVERS.catalog.name)
        .listTools()
        .assertStatus(401)
        .assertError('Wrong token for this MCP server');
    });
  });
});
