/**
 * Bounded work per request (issue 31, item 3): a resource URI longer than `maxUriLength` is
 * refused before any template is matched against it, whatever the transport, and an
 * ambiguous template is logged at bootstrap. The URI that took the MCP SDK's matcher over a
 * second of blocked event loop (32,000 characters against `files://{name}.{ext}`) is answered
 * without a single match: the spy on the matcher counts them, no timing is asserted.
 */
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, McpResource } from 'nestjs-mcp';
import { McpTestClient } from 'nestjs-mcp/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppModule as SampleAppModule } from '../../sample/app.module.js';
import { SAMPLE_DEFAULTS } from '../../sample/sample.config.js';
import { UriTemplateMatcher } from '../../lib/utils/uri-template.matcher.js';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/fixture-app.js';
import { eraRequest, MODERN_VERSION } from '../support/mcp-post.js';

@Injectable()
class FilesContent {
  @McpResource({ uri: 'files://{name}.{ext}', name: 'file', mimeType: 'text/plain' })
  file({ name, ext }: Record<string, string>): string {
    return `${name} (${ext})`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'files', version: '1.0.0' })],
  providers: [FilesContent],
})
class FilesAppModule {}

/** `files://` and 32,000 dots: what the SDK's matcher took 1.8 s to read (issue 31). */
const HOSTILE_URI = `files://${'.'.repeat(32_000)}`;
/** The same with a slash at the end: no match, where the SDK's regex backtracks longest. */
const HOSTILE_MISS = `${HOSTILE_URI}/`;

const LEGACY = '2025-11-25';

const logs = captureLogs();

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(ADAPTERS)('bounded reads over HTTP (%s)', (adapter) => {
  let running: RunningApp;
  let app: INestApplication;

  beforeAll(async () => {
    running = await startApp(FilesAppModule, { adapter, logger: logs });
    app = running.app;
  });

  afterAll(() => running?.close());

  const read = (era: string, uri: string) =>
    eraRequest(
      app,
      era,
      'resources/read',
      { uri },
      // A 2026 client names the resource in a header; 32,000 characters exceed what Node
      // accepts in headers (16 KiB), so the longest URIs go without it, to the SDK's entry.
      era === MODERN_VERSION && uri.length < 8000 ? { 'Mcp-Name': uri } : {},
    );

  it.each([HOSTILE_URI, HOSTILE_MISS])(
    'refuses a 32,000-character URI with -32602 naming the limit, without matching a template',
    async (uri) => {
      const match = vi.spyOn(UriTemplateMatcher.prototype, 'match');
      const { status, message } = await read(LEGACY, uri);
      expect(status).toBe(200);
      expect(message.error).toEqual({
        code: -32602,
        message:
          `URI too long: ${uri.length} characters, over the limit of 4096. ` +
          'Call resources/list or resources/templates/list to see what this server offers.',
        data: { length: uri.length, maxUriLength: 4096 },
      });
      expect(match).not.toHaveBeenCalled();
    },
  );

  it.each([MODERN_VERSION, LEGACY])(
    'keeps serving: a normal read still works (%s)',
    async (era) => {
      await read(era, HOSTILE_MISS);
      const match = vi.spyOn(UriTemplateMatcher.prototype, 'match');
      const { message } = await read(era, 'files://archive.tar.gz');
      expect(message.result.contents).toEqual([
        { uri: 'files://archive.tar.gz', mimeType: 'text/plain', text: 'archive.tar (gz)' },
      ]);
      expect(match).toHaveBeenCalledOnce();
    },
  );

  it('refuses a URI one character over the limit on the 2026 wire, and reads one at it', async () => {
    const atLimit = `files://${'a'.repeat(4096 - 'files://'.length - 3)}.md`;
    expect(atLimit).toHaveLength(4096);
    const read4096 = await read(MODERN_VERSION, atLimit);
    expect(read4096.message.result.contents[0].text).toMatch(/^a+ \(md\)$/);
    const over = await read(MODERN_VERSION, `${atLimit}x`);
    expect(over.message.error).toMatchObject({
      code: -32602,
      data: { length: 4097, maxUriLength: 4096 },
    });
  });

  it('refuses completion of a resource template whose URI is over the limit', async () => {
    const { message } = await eraRequest(app, LEGACY, 'completion/complete', {
      ref: { type: 'ref/resource', uri: HOSTILE_URI },
      argument: { name: 'ext', value: '' },
    });
    expect(message.error).toMatchObject({ code: -32602, data: { length: 32_008 } });
  });
});

describe('the ambiguous template at bootstrap', () => {
  it('is logged once by CatalogAssembler, naming the resource, the template and the fix', async () => {
    const running = await startApp(FilesAppModule, { logger: logs });
    try {
      const warnings = logs
        .messages('warn', 'CatalogAssembler')
        .filter((message) => message.includes('files://{name}.{ext}'));
      expect(warnings).toEqual([
        'The resource template files://{name}.{ext} of the resource "file" ' +
          '(FilesContent.file) is ambiguous: {name} and {ext} are separated only by ".", ' +
          'which can be part of a value of each. A URI can then be read more than one way; ' +
          'resources/read gives the first expression the longest value the URI allows (as ' +
          'the MCP SDK does), which may not be the values the client expanded. Separate ' +
          'them with a character no value can contain, such as "/": files://{name}/{ext}.',
      ]);
    } finally {
      await running.close();
    }
  });
});

describe('bounded reads in memory, with maxUriLength', () => {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'files', version: '1.0.0', http: false, maxUriLength: 64 }),
    ],
    providers: [FilesContent],
  })
  class SmallLimitModule {}

  it('refuses a URI over the configured limit, and reads one within it', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [SmallLimitModule] })
      .setLogger(logs)
      .compile();
    const context = await moduleRef.createNestApplication({ logger: logs }).init();
    const mcp = await McpTestClient.connect(context);
    try {
      const match = vi.spyOn(UriTemplateMatcher.prototype, 'match');
      const refused = await mcp.readResource(`files://${'.'.repeat(57)}`);
      expect(refused.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('URI too long: 65 characters, over the limit of 64.'),
      });
      expect(match).not.toHaveBeenCalled();
      await mcp.readResource('files://notes.md').assertText('notes (md)');
    } finally {
      await mcp.close();
      await context.close();
    }
  });
});

describe('the refusal in German (the sample’s translations)', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(SampleAppModule);
  });

  afterAll(() => running?.close());

  it('says the limit and the length in the caller’s language', async () => {
    const uri = `catalog://products/${'0'.repeat(5000)}`;
    const { message, headers } = await eraRequest(
      running.app,
      MODERN_VERSION,
      'resources/read',
      { uri },
      {
        Authorization: `Bearer ${SAMPLE_DEFAULTS.adminToken}`,
        'Accept-Language': 'de',
        'Mcp-Name': uri,
      },
    );
    expect(headers['content-language']).toBe('de');
    expect(message.error.code).toBe(-32602);
    expect(message.error.message).toBe(
      `URI zu lang: ${uri.length} Zeichen, über der Grenze von 4096. Mit resources/list oder ` +
        'resources/templates/list abrufen, was dieser Server anbietet.',
    );
  });
});
