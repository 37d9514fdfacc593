import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureAdminGuard } from '../fixtures/fixture.guards.js';
import {
  FixtureScopedTools,
  FixtureToolsService,
  KNOWN_ITEM_ID,
} from '../fixtures/fixture.tools.js';
import { captureLogs, referenceIn } from '../support/captured-logs.js';
import { ADAPTERS, startFixtureApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

const textOf = (result: Record<string, any>) =>
  (result.content as Array<{ type: string; text?: string }>).map((c) => c.text).join('\n');

describe.each(ADAPTERS)('on %s', (adapter) => {
  describe.each(CLIENTS)('real MCP client over Streamable HTTP, $era', ({ connect }) => {
    let running: RunningApp;
    let reader: TestClient;
    let admin: TestClient;
    const logs = captureLogs();

    beforeAll(async () => {
      running = await startFixtureApp({ adapter, logger: logs });
      reader = await connect(running.url, 'reader');
      admin = await connect(running.url, 'admin');
    });

    afterAll(async () => {
      await reader?.close();
      await admin?.close();
      await running?.close();
    });

    it('lists the tools with input schemas derived from their DTOs', async () => {
      const { tools } = await reader.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(names.toSorted());
      expect(names).toEqual(
        expect.arrayContaining([
          'add_numbers',
          'echo',
          'get_item',
          'list_items',
          'explode',
          'refuse',
          'pixel',
          'scoped_counter',
        ]),
      );
      // `purge` is guarded by FixtureAdminGuard: the reader does not even see it.
      expect(names).not.toContain('purge');
      expect((await admin.listTools()).tools.map((tool) => tool.name)).toContain('purge');
      const add = tools.find((tool) => tool.name === 'add_numbers')!;
      expect(add.description).toBe('Add two whole numbers between 0 and 1000.');
      expect(add.annotations).toEqual({ readOnlyHint: true });
      expect(add.inputSchema).toMatchObject({
        type: 'object',
        additionalProperties: false,
        required: ['a', 'b'],
        properties: {
          a: { type: 'integer', minimum: 0, maximum: 1000 },
          b: { type: 'integer', minimum: 0, maximum: 1000 },
        },
      });
      const echo = tools.find((tool) => tool.name === 'echo')!;
      // Optional: listed without null (the portable default, schema.nullableOptionals).
      expect(echo.inputSchema.properties.note).toEqual({ $ref: '#/$defs/NoteDto' });
      expect(echo.inputSchema.$defs.NoteDto).toMatchObject({
        type: 'object',
        additionalProperties: false,
        required: ['text'],
      });
      expect(tools.find((tool) => tool.name === 'list_items')!.inputSchema).toEqual({
        type: 'object',
        additionalProperties: false,
      });
    });

    it('calls a tool and returns its result as text', async () => {
      const result = await reader.callTool('add_numbers', { a: 2, b: 40 });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: '42' }]);
    });

    it('hands the method a real DTO instance, nested DTOs included, and the call context', async () => {
      const result = await reader.callTool('echo', { message: 'hi', note: { text: 'n' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        message: 'hi',
        note: 'n',
        dtoClass: 'EchoDto',
        tool: 'echo',
      });
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    });

    it.each([
      ['a wrong type', { a: 'two', b: 1 }, '/a'],
      ['a value out of range', { a: 5000, b: 1 }, '/a'],
      ['an unknown property', { a: 1, b: 1, c: 3 }, '/c'],
      ['a missing property', { a: 1 }, '/b'],
    ])(
      'refuses %s with an isError result naming the field, without calling the method',
      async (_case, args, pointer) => {
        const service = running.app.get(FixtureToolsService);
        const before = service.addCalls;
        const result = await reader.callTool('add_numbers', args);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(pointer);
        expect(result.structuredContent.error).toBe('invalid_arguments');
        expect(
          result.structuredContent.issues.map((issue: { path: string }) => issue.path),
        ).toContain(pointer);
        expect(service.addCalls).toBe(before);
      },
    );

    it('refuses invalid nested arguments with a JSON pointer into the nested DTO', async () => {
      const result = await reader.callTool('echo', { message: 'hi', note: { text: '' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('/note/text');
    });

    it('answers an unknown tool with JSON-RPC error -32602', async () => {
      await expect(reader.callTool('no_such_tool', {})).rejects.toMatchObject({ code: -32602 });
    });

    it('maps a Nest HttpException to an isError result with status and message', async () => {
      const result = await reader.callTool('get_item', {
        id: '3b241101-e2bb-4255-8caf-4136c566a962',
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Not Found (404): No item with id 3b241101-e2bb-4255-8caf-4136c566a962',
      );
      expect(result.structuredContent).toMatchObject({ statusCode: 404 });
      const found = await reader.callTool('get_item', { id: KNOWN_ITEM_ID });
      expect(found.structuredContent).toEqual({ id: KNOWN_ITEM_ID, name: 'Widget' });
    });

    it('masks an unexpected error: nothing of it reaches the client, all of it the log', async () => {
      const result = await reader.callTool('explode', {});
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Internal error: the tool failed unexpectedly \(reference [0-9a-f]{8}\)/,
      );
      expect(JSON.stringify(result)).not.toMatch(/hunter2|db\.ts|Error:/);
      logs.expectError(
        '[ToolInvokerFactory] Tool "explode" (FixtureToolsService.explode) failed',
        `[ref ${referenceIn(textOf(result))}]`,
        'Error: database password=hunter2 at /srv/app/db.ts',
        /at FixtureToolsService\.explode /,
      );
      // Only once: Nest's ExceptionsHandler leaves MCP calls to the library.
    });

    it('passes an McpToolError message to the model', async () => {
      const result = await reader.callTool('refuse', {});
      expect(result).toMatchObject({ isError: true, structuredContent: { reopensAt: '08:00' } });
      expect(textOf(result)).toBe('The warehouse is closed; try again tomorrow.');
    });

    it('passes MCP content blocks through', async () => {
      const result = await reader.callTool('pixel', {});
      expect(result.content).toEqual([
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ]);
    });

    it('refuses a tool whose guard rejects the caller, and runs it for the admin', async () => {
      FixtureAdminGuard.calls = [];
      const refused = await reader.callTool('purge', {});
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('Forbidden (403): Forbidden resource');
      const allowed = await admin.callTool('purge', {});
      expect(allowed).toMatchObject({ content: [{ type: 'text', text: 'purged' }] });
      expect(FixtureAdminGuard.calls).toEqual(['mcp', 'mcp']);
    });

    it('creates a request-scoped provider per call while the singleton stays one', async () => {
      const scopedBefore = FixtureScopedTools.instances;
      const singletonsBefore = FixtureToolsService.instances;
      const counts: number[] = [];
      for (let i = 0; i < 3; i++)
        counts.push(Number(textOf(await reader.callTool('scoped_counter', {}))));
      expect(FixtureScopedTools.instances - scopedBefore).toBe(3);
      expect(counts).toEqual([scopedBefore + 1, scopedBefore + 2, scopedBefore + 3]);
      await reader.callTool('add_numbers', { a: 1, b: 1 });
      expect(FixtureToolsService.instances).toBe(singletonsBefore);
    });

    it('injects the HTTP request as REQUEST into a request-scoped tool provider', async () => {
      expect(textOf(await reader.callTool('who_asks', {}))).toBe('authorization: Bearer reader');
      expect(textOf(await admin.callTool('who_asks', {}))).toBe('authorization: Bearer admin');
    });
  });

  describe.each(CLIENTS)('endpoint guard, $era', ({ connect }) => {
    let running: RunningApp;
    const logs = captureLogs();

    beforeAll(async () => {
      running = await startFixtureApp({ adapter, logger: logs });
    });

    afterAll(async () => {
      await running?.close();
    });

    it("rejects a client without a token with the guard's 401", async () => {
      await expect(connect(running.url)).rejects.toThrow(/401|Unauthorized/);
    });
  });
});
