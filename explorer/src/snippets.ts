import type { Action } from './explorer-session.js';
import type { RecordedRequest } from './recording-fetch.js';

export const CLIENTS = ['Claude Desktop', 'Claude Code', 'VS Code', 'Cursor'] as const;
export type ClientKind = (typeof CLIENTS)[number];

const MASK = '<token>';
/** A string in single quotes for a POSIX shell. */
const shell = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
const masked = (token: string | undefined, show: boolean) => (token && show ? token : MASK);

/** The recorded request as curl: its URL, every header, its body, byte for byte. */
export function curlOf(
  request: RecordedRequest | undefined,
  token: string | undefined,
  show: boolean,
): string {
  if (!request)
    return '# Call a tool, get a prompt or read a resource first: its request shows here.';
  const lines = [`curl -X ${request.method} ${shell(request.url)}`];
  for (const [name, value] of request.headers) {
    const shown =
      name.toLowerCase() === 'authorization' && !show
        ? value.replace(/^(\S+\s+).*$/, `$1${MASK}`)
        : value;
    lines.push(`-H ${shell(`${name}: ${shown}`)}`);
  }
  lines.push(`--data-raw ${shell(request.body)}`);
  return lines.join(' \\\n  ');
}

export interface ServerTarget {
  /** The server's name, the key of the client configuration. */
  name: string;
  url: string;
  token?: string;
  locale?: string;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** How a client is configured to reach this server as this caller. */
export function clientConfigOf(client: ClientKind, target: ServerTarget, show: boolean): string {
  const headers: Record<string, string> = {};
  if (target.token) headers.Authorization = `Bearer ${masked(target.token, show)}`;
  if (target.locale) headers['Accept-Language'] = target.locale;
  const headerArgs = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  switch (client) {
    case 'Claude Desktop':
      return `// claude_desktop_config.json (Claude Desktop reaches a remote server through mcp-remote)\n${json(
        {
          mcpServers: {
            [target.name]: {
              command: 'npx',
              args: [
                '-y',
                'mcp-remote',
                target.url,
                ...headerArgs.flatMap((header) => ['--header', header]),
              ],
            },
          },
        },
      )}`;
    case 'Claude Code':
      return [
        `claude mcp add --transport http ${shell(target.name)} ${shell(target.url)}`,
        ...headerArgs.map((header) => `--header ${shell(header)}`),
      ].join(' \\\n  ');
    case 'VS Code':
      return `// .vscode/mcp.json\n${json({ servers: { [target.name]: { type: 'http', url: target.url, ...(headerArgs.length ? { headers } : {}) } } })}`;
    case 'Cursor':
      return `// .cursor/mcp.json\n${json({ mcpServers: { [target.name]: { url: target.url, ...(headerArgs.length ? { headers } : {}) } } })}`;
  }
}

const literal = (value: unknown) => JSON.stringify(value, null, 2).replaceAll('\n', '\n  ');

/** The request and assertion of the last action, for `nestjs-mcp/testing`. */
function requestOf(action: Action): string[] {
  const { outcome } = action;
  const call =
    action.kind === 'tool'
      ? `mcp.callTool(${JSON.stringify(action.name)}, ${literal(action.arguments)})`
      : action.kind === 'prompt'
        ? `mcp.getPrompt(${JSON.stringify(action.name)}, ${literal(action.arguments)})`
        : `mcp.readResource(${JSON.stringify(action.uri)})`;
  if (outcome.kind === 'error')
    return [`await ${call}.assertError(${outcome.code ?? JSON.stringify(outcome.message)});`];
  if (outcome.kind === 'cancelled')
    return [`// The call was cancelled: nothing to assert.`, `await ${call};`];
  const { result } = outcome;
  const assertion = result.isError ? 'assertError()' : 'assertOk()';
  if (action.kind === 'tool' && result.structuredContent !== undefined) {
    return [
      `const answer = await ${call}.${assertion};`,
      `expect(answer.result?.structuredContent).toEqual(${literal(result.structuredContent)});`,
    ];
  }
  if (action.kind === 'tool') {
    const text = ((result.content ?? []) as { type: string; text?: string }[])
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n');
    return [`await ${call}.${assertion}.assertText(${JSON.stringify(text)});`];
  }
  if (action.kind === 'prompt') {
    return [
      `const answer = await ${call}.${assertion};`,
      `expect(answer.result?.messages).toEqual(${literal(result.messages)});`,
    ];
  }
  return [
    `const answer = await ${call}.${assertion};`,
    `expect(answer.result?.contents).toEqual(${literal(result.contents)});`,
  ];
}

/** A test that repeats the last action with the test kit and asserts what it returned. */
export function testOf(
  action: Action | undefined,
  target: ServerTarget & { several: boolean },
  show: boolean,
): string {
  if (!action) return '// Call a tool, get a prompt or read a resource first: its test shows here.';
  const options: string[] = [];
  if (target.several) options.push(`server: ${JSON.stringify(target.name)}`);
  if (target.token)
    options.push(
      `headers: { authorization: ${JSON.stringify(`Bearer ${masked(target.token, show)}`)} }`,
    );
  if (target.locale) options.push(`locale: ${JSON.stringify(target.locale)}`);
  const what = action.kind === 'resource' ? action.uri : action.name;
  const body = requestOf(action);
  const vitest = body.some((line) => line.startsWith('expect('))
    ? 'afterAll, beforeAll, expect, it'
    : 'afterAll, beforeAll, it';
  return [
    `import type { INestApplication } from '@nestjs/common';`,
    `import { Test } from '@nestjs/testing';`,
    `import { McpTestClient } from 'nestjs-mcp/testing';`,
    `import { ${vitest} } from 'vitest';`,
    `import { AppModule } from './app.module.js';`,
    ``,
    `let app: INestApplication;`,
    `let mcp: McpTestClient;`,
    ``,
    `beforeAll(async () => {`,
    `  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();`,
    `  app = await moduleRef.createNestApplication().init();`,
    `  mcp = await McpTestClient.connect(app${options.length ? `, { ${options.join(', ')} }` : ''});`,
    `});`,
    ``,
    `afterAll(async () => {`,
    `  await mcp.close();`,
    `  await app.close();`,
    `});`,
    ``,
    `it(${JSON.stringify(`answers ${what} as the explorer showed`)}, async () => {`,
    ...body.map((line) => `  ${line}`),
    `});`,
  ].join('\n');
}
