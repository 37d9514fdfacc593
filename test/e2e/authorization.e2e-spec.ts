import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Injectable,
  type INestApplication,
  Module,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { AuthGuard, PassportModule, PassportStrategy } from '@nestjs/passport';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import {
  McpContext,
  type McpCallContext,
  McpExecutionContext,
  McpHidden,
  McpModule,
  McpScopes,
  McpServerHost,
  McpTool,
  McpTools,
} from 'nestjs-mcp';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';
import { postModern } from '../support/mcp-post.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

/** The app's users, as its existing auth knows them. */
const USERS: Record<string, { name: string; scopes: string[] }> = {
  'token-reader': { name: 'rita', scopes: ['orders.read'] },
  'token-writer': { name: 'walt', scopes: ['orders.read', 'orders.write'] },
  'token-ops': { name: 'olga', scopes: ['orders.read', 'ops'] },
};

/** The app's existing Passport bearer strategy, unchanged. */
@Injectable()
class TokenStrategy extends PassportStrategy(BearerStrategy, 'bearer') {
  validate(token: string) {
    const user = USERS[token];
    if (!user) throw new UnauthorizedException('Unknown token');
    return user;
  }
}

class OrderDto {
  @IsString()
  item!: string;
}

/** Refuses calls outside business hours, but keeps the tool listed: it checks the phase. */
@Injectable()
class BusinessHoursGuard implements CanActivate {
  static open = false;

  canActivate(context: ExecutionContext): boolean {
    return McpExecutionContext.create(context).isListing() || BusinessHoursGuard.open;
  }
}

@McpTools({ annotations: { openWorldHint: false } })
@Injectable()
class OrdersService {
  listOrders() {
    return ['o-1', 'o-2'];
  }

  @McpTool({ description: 'Place an order.', annotations: { readOnlyHint: false } })
  @McpScopes('orders.write')
  placeOrder(order: OrderDto) {
    return `placed ${order.item}`;
  }

  @McpScopes({ any: ['ops', 'admin'] })
  reindex() {
    return 'reindexed';
  }

  @UseGuards(BusinessHoursGuard)
  callSupplier() {
    return 'called';
  }

  @McpHidden('Refunds go through the payments team.')
  refundOrder(order: OrderDto) {
    return `refunded ${order.item}`;
  }

  @McpTool({ hidden: 'Replaced by place_order.' })
  legacyPlaceOrder(order: OrderDto) {
    return `placed ${order.item}`;
  }

  _internalHelper() {
    return 'never a tool';
  }
}

/** The app's REST API, protected by the same Passport guard. */
@Controller('me')
@UseGuards(AuthGuard('bearer'))
class MeController {
  @Get()
  me() {
    return 'me';
  }
}

@Module({
  imports: [
    PassportModule,
    McpModule.forRoot({
      name: 'orders',
      version: '1.0.0',
      http: { guards: [AuthGuard('bearer')] },
    }),
  ],
  controllers: [MeController],
  providers: [TokenStrategy, OrdersService],
})
class OrdersAppModule {}

const names = async (client: TestClient) =>
  (await client.listTools()).tools.map((tool) => tool.name);
const textOf = (result: Record<string, any>) =>
  result.content.map((c: { text?: string }) => c.text).join('\n');

describe.each(ADAPTERS)('on %s', (adapter) => {
  describe.each(CLIENTS)('authorization: what a caller sees and may call, $era', ({ connect }) => {
    let app: INestApplication;
    let url: URL;
    const clients: Record<string, TestClient> = {};

    beforeAll(async () => {
      ({ app, url } = await startApp(OrdersAppModule, { adapter, logger: logs }));
      for (const token of Object.keys(USERS)) clients[token] = await connect(url, token);
    });

    afterAll(async () => {
      for (const client of Object.values(clients)) await client.close();
      await app?.close();
    });

    it('publishes every public method of an @McpTools class, minus hidden and _private ones', async () => {
      expect(await names(clients['token-writer']!)).toEqual([
        'call_supplier',
        'list_orders',
        'place_order',
      ]);
      const { tools } = await clients['token-writer']!.listTools();
      expect(tools.find((tool) => tool.name === 'list_orders')!.annotations).toEqual({
        openWorldHint: false,
      });
      expect(tools.find((tool) => tool.name === 'place_order')!.annotations).toEqual({
        openWorldHint: false,
        readOnlyHint: false,
      });
    });

    it('shows a scoped tool to the caller with the scope and hides it from the others', async () => {
      expect(await names(clients['token-reader']!)).toEqual(['call_supplier', 'list_orders']);
      expect(await names(clients['token-ops']!)).toEqual([
        'call_supplier',
        'list_orders',
        'reindex',
      ]);
    });

    it('lets the scoped caller call, and refuses the under-scoped caller naming the missing scope', async () => {
      expect(
        (await clients['token-writer']!.callTool('place_order', { item: 'tea' })).content,
      ).toEqual([{ type: 'text', text: 'placed tea' }]);
      const refused = await clients['token-reader']!.callTool('place_order', { item: 'tea' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe(
        'Forbidden (403): Missing scope(s): orders.write; the caller has orders.read.',
      );
      const anyOf = await clients['token-writer']!.callTool('reindex', {});
      expect(textOf(anyOf)).toBe(
        'Forbidden (403): Missing scope: one of ops, admin is required; the caller has orders.read, orders.write.',
      );
      expect(textOf(await clients['token-ops']!.callTool('reindex', {}))).toBe('reindexed');
    });

    it('lets a guard keep a tool listed while refusing the call', async () => {
      BusinessHoursGuard.open = false;
      expect(await names(clients['token-reader']!)).toContain('call_supplier');
      const refused = await clients['token-reader']!.callTool('call_supplier', {});
      expect(textOf(refused)).toBe('Forbidden (403): Forbidden resource');
      BusinessHoursGuard.open = true;
      expect(textOf(await clients['token-reader']!.callTool('call_supplier', {}))).toBe('called');
    });

    it('never lists and never runs a hidden method', async () => {
      for (const hidden of [
        'refund_order',
        'legacy_place_order',
        '_internal_helper',
        'internal_helper',
      ]) {
        await expect(
          clients['token-writer']!.callTool(hidden, { item: 'x' }),
        ).rejects.toMatchObject({
          code: -32602,
        });
      }
    });

    it('protects the endpoint and the REST API with the same Passport guard, unchanged', async () => {
      await expect(connect(url, 'token-nobody')).rejects.toThrow(/401|Unauthorized/);
      expect(
        (await request(app.getHttpServer()).get('/me').set('Authorization', 'Bearer token-nobody'))
          .status,
      ).toBe(401);
      expect(
        (await request(app.getHttpServer()).get('/me').set('Authorization', 'Bearer token-reader'))
          .status,
      ).toBe(200);
    });

    it('reports hidden methods with their reasons', () => {
      expect(app.get(McpServerHost).hiddenMethods()).toEqual([
        { where: 'OrdersService.refundOrder', reason: 'Refunds go through the payments team.' },
        { where: 'OrdersService.legacyPlaceOrder', reason: 'Replaced by place_order.' },
      ]);
    });
  });

  describe('authorization on the 2026-07-28 wire', () => {
    let app: INestApplication;

    beforeAll(async () => {
      ({ app } = await startApp(OrdersAppModule, { adapter, logger: logs }));
    });

    afterAll(() => app?.close());

    it('marks a list that depends on the caller as private for caching', async () => {
      const { message } = await postModern(
        app,
        '/mcp',
        'tools/list',
        {},
        { Authorization: 'Bearer token-ops' },
      );
      expect(message.result).toMatchObject({ cacheScope: 'private' });
    });
  });
});

describe('@McpHidden without a reason', () => {
  it('fails bootstrap saying why a reason is needed', async () => {
    @McpTools()
    @Injectable()
    class Careless {
      @McpHidden('')
      wipe() {}
    }
    const moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'x', version: '1' })],
      providers: [Careless],
    }).compile();
    const error = await moduleRef
      .createNestApplication({ logger: logs })
      .init()
      .catch((e: Error) => e);
    expect((error as Error).message).toContain('Careless.wipe is hidden from MCP without a reason');
  });
});

@Injectable()
class ProfileService {
  @McpTool({ description: 'Anyone may call this.' })
  ping() {
    return 'pong';
  }

  @McpTool({ description: 'Who am I, per the Passport bearer strategy.' })
  @UseGuards(AuthGuard('bearer'))
  whoAmI(@McpContext() call: McpCallContext) {
    return (call.httpRequest as { user: { name: string } }).user.name;
  }
}

@Module({
  imports: [PassportModule, McpModule.forRoot({ name: 'profiles', version: '1.0.0' })],
  providers: [TokenStrategy, ProfileService],
})
class ProfilesAppModule {}

describe.each(ADAPTERS)('on %s', (adapter) => {
  describe.each(CLIENTS)('a Passport AuthGuard on a tool, $era', ({ connect }) => {
    let app: INestApplication;
    let url: URL;

    beforeAll(async () => {
      ({ app, url } = await startApp(ProfilesAppModule, { adapter, logger: logs }));
    });

    afterAll(() => app?.close());

    it('hides the tool from an anonymous caller and refuses its call with 401', async () => {
      const anonymous = await connect(url);
      expect(await names(anonymous)).toEqual(['ping']);
      expect(textOf(await anonymous.callTool('who_am_i', {}))).toBe(
        'Unauthorized (401): Unauthorized',
      );
      await anonymous.close();
    });

    it('shows and runs the tool for a caller the strategy accepts', async () => {
      const walt = await connect(url, 'token-writer');
      expect(await names(walt)).toEqual(['ping', 'who_am_i']);
      expect(textOf(await walt.callTool('who_am_i', {}))).toBe('walt');
      await walt.close();
    });
  });
});
