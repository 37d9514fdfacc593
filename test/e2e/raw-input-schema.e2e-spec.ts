import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsString } from 'class-validator';
import { McpConfigurationError, McpModule, McpTool, type JsonSchema } from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { startApp, type RunningApp } from '../support/fixture-app.js';
import { CLIENTS, type TestClient } from '../support/mcp-clients.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

const CONTACT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    phone: { type: 'string' },
    email: { type: 'string', format: 'email' },
  },
  required: ['name'],
  anyOf: [{ required: ['phone'] }, { required: ['email'] }],
  additionalProperties: false,
};

@Injectable()
class ContactTools {
  @McpTool({
    description: 'Saves a contact reachable by phone or email.',
    inputSchema: CONTACT_SCHEMA,
  })
  saveContact(args: Record<string, unknown>) {
    return { saved: args };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'contacts', version: '1.0.0' })],
  providers: [ContactTools],
})
class ContactsModule {}

describe.each(CLIENTS)('a tool with a raw inputSchema, $era', ({ connect }) => {
  let running: RunningApp;
  let client: TestClient;

  beforeAll(async () => {
    running = await startApp(ContactsModule);
    client = await connect(running.url);
  });

  afterAll(async () => {
    await client.close();
    await running.close();
  });

  it('promises list-changed notifications only where it can deliver them', async () => {
    // 2026-07-28: on listen streams. 2025 without sessions: no channel, so no promise.
    const expected = client.label.startsWith('v2');
    expect(client.sdk.getServerCapabilities().tools).toEqual({ listChanged: expected });
    expect(client.sdk.getServerCapabilities().resources).toMatchObject({
      subscribe: expected,
      listChanged: expected,
    });
  });

  it('lists the schema as given', async () => {
    const { tools } = await client.listTools();
    expect(tools[0].inputSchema).toEqual(CONTACT_SCHEMA);
  });

  it('passes valid arguments to the method as a plain object', async () => {
    const result = await client.callTool('save_contact', { name: 'Ada', email: 'ada@example.com' });
    expect(result.structuredContent).toEqual({ saved: { name: 'Ada', email: 'ada@example.com' } });
  });

  it('refuses arguments the schema rejects, naming the problem, without calling the method', async () => {
    const result = await client.callTool('save_contact', { name: 'Ada', fax: '123' });
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('Invalid arguments');
    expect(result.structuredContent.issues.length).toBeGreaterThan(0);
  });
});

/** Bootstraps an app with one tools provider, then closes it. */
const boot = async (tools: Function) => {
  @Module({
    imports: [McpModule.forRoot({ name: 'x', version: '1' })],
    providers: [tools as any],
  })
  class AppModule {}
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: logs });
  try {
    await app.init();
  } finally {
    await app.close();
  }
};

describe('inputSchema at bootstrap', () => {
  class NameDto {
    @IsString()
    name!: string;
  }

  it('refuses a tool with both a DTO and an inputSchema', async () => {
    @Injectable()
    class Both {
      @McpTool({ description: 'x', inputSchema: { type: 'object' } })
      both(args: NameDto) {
        return args;
      }
    }
    await expect(boot(Both)).rejects.toThrow(McpConfigurationError);
    await expect(boot(Both)).rejects.toThrow(/both an arguments DTO and the "inputSchema" option/);
  });

  it('refuses an inputSchema whose root is not an object', async () => {
    @Injectable()
    class NotObject {
      @McpTool({ description: 'x', inputSchema: { type: 'array' } })
      list(args: Record<string, unknown>) {
        return args;
      }
    }
    await expect(boot(NotObject)).rejects.toThrow(/must have "type": "object" at its root/);
  });
});
