import { bootstrapStdio, type McpStdioServer } from 'nestjs-mcp/stdio';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { I18nFixtureModule } from '../fixtures/i18n/i18n.fixture.js';
import { initializeRequest } from '../transports/stdio/stdio-process.js';

const ENV = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
const servers: McpStdioServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

/** Serves the fixture over in-memory stdio and answers `initialize` and `tools/list`. */
async function serve(locale?: string) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const messages: Array<Record<string, any>> = [];
  let partial = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    messages.push(...lines.map((line) => JSON.parse(line)));
  });
  const answerTo = async (id: number) => {
    for (;;) {
      const found = messages.find((message) => message.id === id);
      if (found) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const server = await bootstrapStdio(I18nFixtureModule, {
    stdin,
    stdout,
    exitOnClose: false,
    logger: false,
    ...(locale !== undefined && { locale }),
  });
  servers.push(server);
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  send(initializeRequest(1));
  const initialized = await answerTo(1);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const listed = await answerTo(2);
  const search = listed.result.tools.find(
    (tool: { name: string }) => tool.name === 'search_products',
  );
  return { instructions: initialized.result.instructions, title: search.title };
}

const clearEnvironment = () => {
  for (const name of ENV) delete process.env[name];
};

describe('the locale over stdio', () => {
  it('takes the locale option, a region finding its language', async () => {
    process.env.LANG = 'en_US.UTF-8';
    expect(await serve('de-AT')).toEqual({
      instructions: 'Nutze zuerst search_products.',
      title: 'Produkte suchen',
    });
  });

  it('takes LC_ALL, else LC_MESSAGES, else LANG', async () => {
    clearEnvironment();
    process.env.LANG = 'de_DE.UTF-8';
    expect((await serve()).title).toBe('Produkte suchen');
    process.env.LC_MESSAGES = 'en_GB.UTF-8';
    expect((await serve()).title).toBe('Search products');
    process.env.LC_ALL = 'de_CH.UTF-8';
    expect((await serve()).title).toBe('Produkte suchen');
  });

  it('takes the default without a locale anywhere, or for one it does not offer', async () => {
    clearEnvironment();
    expect(await serve()).toEqual({
      instructions: 'Use search_products first.',
      title: 'Search products',
    });
    expect((await serve('fr')).title).toBe('Search products');
  });
});
