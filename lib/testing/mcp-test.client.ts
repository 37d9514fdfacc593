import type { INestApplicationContext } from '@nestjs/common';
import { callerLabel } from '../contract/caller-label.js';
import {
  DEFAULT_LOCALE,
  type ContractListMethod,
  type ServerContract,
} from '../contract/mcp-contract.interface.js';
import { describeServerContract } from '../contract/server-contract.builder.js';
import type { McpTestAnswer } from './mcp-test-answer.js';
import { MCP_TEST_PROTOCOL_VERSIONS, type McpTestProtocolVersion } from './mcp-test.connection.js';
import type { McpTestHooks } from './mcp-test.hooks.js';
import { readView, type McpTestView } from './mcp-test-view.js';
import { McpTestRequest } from './mcp-test.request.js';
import { McpTestSession, type ClientIdentity } from './mcp-test.session.js';

/** Options of {@link McpTestClient.connect}. */
export interface McpTestClientOptions {
  /**
   * The server to talk to, by its `McpModule` `name`; needed when the app has several.
   * @default the app's only server
   */
  server?: string;
  /**
   * The protocol revision: 2026-07-28 is stateless; the 2025 revisions perform the
   * `initialize` handshake first.
   * @default '2026-07-28'
   */
  protocolVersion?: McpTestProtocolVersion;
  /**
   * Request headers of the caller, for example `{ authorization: 'Bearer reader-token' }`.
   * In memory (no HTTP), they are the headers of the request the guards read.
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * The locale the caller asks for, sent as `Accept-Language`.
   * @default none
   */
  locale?: string;
}

/** The list requests, the field of their result that holds the entries. */
const LIST_FIELDS = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
} as const satisfies Record<ContractListMethod, string>;

/** Pages of one list before the kit concludes that the server's cursors never end. */
const MAX_PAGES = 1_000;

const lowerCased = (headers: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * A client for tests that drives one MCP server of a Nest app with the real MCP SDK client:
 * through the app's HTTP endpoint (an `INestApplication` after `init()`; the kit listens on
 * a free port of 127.0.0.1 while it is open, as supertest does, unless the app listens
 * already), or in memory into the same server (an application context without HTTP, or a
 * server with `http: false`). Each request returns an {@link McpTestRequest}: chain
 * assertions on it and await it.
 *
 * @example
 * ```ts
 * const mcp = await McpTestClient.connect(app);
 * await mcp.callTool('add', { a: 1, b: 2 }).assertOk().assertText('3');
 * await mcp.as({ authorization: 'Bearer reader' }).listTools().assertToolNotListed('delete');
 * await mcp.close();
 * ```
 * @publicApi
 */
export class McpTestClient {
  private constructor(
    private readonly session: McpTestSession,
    private readonly identity: ClientIdentity,
    private readonly root: boolean,
  ) {}

  /**
   * Connects to a server of the app (and performs the handshake of the protocol revision).
   * A caller the endpoint refuses is not an error here: its requests answer with the
   * refusal (`assertStatus(401)`).
   */
  static async connect(
    app: INestApplicationContext,
    options: McpTestClientOptions = {},
  ): Promise<McpTestClient> {
    const protocolVersion = options.protocolVersion ?? '2026-07-28';
    if (!MCP_TEST_PROTOCOL_VERSIONS.includes(protocolVersion)) {
      throw new TypeError(
        `McpTestClient speaks the protocol revisions ${MCP_TEST_PROTOCOL_VERSIONS.join(', ')}, ` +
          `not ${JSON.stringify(protocolVersion)}.`,
      );
    }
    const session = new McpTestSession(app);
    const headers = lowerCased(options.headers);
    if (options.locale !== undefined) headers['accept-language'] = options.locale;
    const identity = { server: session.server(options.server), protocolVersion, headers };
    const client = new McpTestClient(session, identity, true);
    try {
      await session.connection(identity);
    } catch (error) {
      await session.close();
      throw error;
    }
    return client;
  }

  /** The name of the server this client talks to. */
  get serverName(): string {
    return this.identity.server.options.name;
  }

  /**
   * A client acting as another caller: these headers replace this client's headers of the
   * same names (case does not matter) and keep the others. It shares this client's app and
   * is closed with it.
   * @example mcp.as({ authorization: 'Bearer admin-token' }).callTool('delete_product', { sku })
   */
  as(headers: Record<string, string>): McpTestClient {
    return this.derive({ headers: { ...this.identity.headers, ...lowerCased(headers) } });
  }

  /** A client talking to another server of the app (its `McpModule` `name`), as the same caller. */
  onServer(name: string): McpTestClient {
    return this.derive({ server: this.session.server(name) });
  }

  /** Every tool the caller sees, all pages joined: `result.tools`. */
  listTools(): McpTestRequest<{ tools: Array<Record<string, any>> }> {
    return this.list('tools/list', 'listTools()');
  }

  /** Every prompt the caller sees, all pages joined: `result.prompts`. */
  listPrompts(): McpTestRequest<{ prompts: Array<Record<string, any>> }> {
    return this.list('prompts/list', 'listPrompts()');
  }

  /** Every resource with a fixed URI, all pages joined: `result.resources`. */
  listResources(): McpTestRequest<{ resources: Array<Record<string, any>> }> {
    return this.list('resources/list', 'listResources()');
  }

  /** Every resource template, all pages joined: `result.resourceTemplates`. */
  listResourceTemplates(): McpTestRequest<{ resourceTemplates: Array<Record<string, any>> }> {
    return this.list('resources/templates/list', 'listResourceTemplates()');
  }

  /** Calls a tool; its `isError` results are results (`assertError()` checks either kind). */
  callTool(name: string, args: Record<string, unknown> = {}): McpTestRequest {
    return this.request(
      'tools/call',
      { name, arguments: args },
      `callTool(${describe(name)}, ${describe(args)})`,
    );
  }

  /** Gets a prompt with its arguments (strings, as the protocol sends them). */
  getPrompt(name: string, args: Record<string, string> = {}): McpTestRequest {
    return this.request(
      'prompts/get',
      { name, arguments: args },
      `getPrompt(${describe(name)}, ${describe(args)})`,
    );
  }

  /** Reads a resource (a fixed URI, or one a template matches). */
  readResource(uri: string): McpTestRequest {
    return this.request('resources/read', { uri }, `readResource(${describe(uri)})`);
  }

  /**
   * The MCP Apps view of a tool, read as a host reads it: the tool's `_meta.ui.resourceUri`
   * from `tools/list`, then `resources/read` of it (and its `resources/list` entry). The
   * result is an {@link McpTestView}: `uri`, `mimeType`, `html`, `meta` (`_meta.ui`),
   * `listedMeta`, `visibility`. A refused read is the answer's `error`.
   * @example await mcp.readView('get_product').assertView({ meta: { csp: { connectDomains: [] } } });
   */
  readView(tool: string): McpTestRequest<McpTestView> {
    const label = `readView(${describe(tool)})`;
    return new McpTestRequest<McpTestView>(label, (hooks) =>
      readView(label, tool, {
        listTools: () => this.listTools().then((answer) => answer),
        listResources: () => this.listResources().then((answer) => answer),
        read: (uri) => this.session.exchange(this.identity, 'resources/read', { uri }, hooks),
      }),
    );
  }

  /**
   * Asks for completions of one argument of a prompt or a resource template.
   * @example mcp.complete({ type: 'ref/prompt', name: 'summarize' }, { name: 'category', value: 'ki' })
   */
  complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
  ): McpTestRequest<{ completion: { values: string[]; total?: number; hasMore?: boolean } }> {
    return this.request(
      'completion/complete',
      { ref, argument },
      `complete(${describe(ref)}, ${describe(argument)})`,
    );
  }

  /** Any request, as it is given (invalid ones too): a JSON-RPC error is the answer's `error`. */
  send(method: string, params?: Record<string, unknown>): McpTestRequest {
    return this.request(
      method,
      params,
      `send(${describe(method)}${params ? `, ${describe(params)}` : ''})`,
    );
  }

  /**
   * What this server publishes to this caller in this locale, exactly as
   * `nestjs-mcp contract` writes it into one entry of `servers` of the contract file.
   * @param options.caller the caller's label, as `--as <label>=...` names it on the CLI
   * @default caller: the headers' label (`anonymous` without headers), as `--as '<header>'` writes it
   */
  async contract(options: { caller?: string } = {}): Promise<ServerContract> {
    const { 'accept-language': locale, ...caller } = this.identity.headers;
    const lister = {
      list: async (method: ContractListMethod) => {
        const { result, error } = await this.list(method, `contract() ${method}`);
        if (error) throw new Error(`contract(): ${method} answered ${error.code} ${error.message}`);
        return (result as Record<string, Record<string, unknown>[]>)[LIST_FIELDS[method]]!;
      },
      toolLimits: (name: string) => this.identity.server.tool(name)?.limits,
    };
    return describeServerContract(lister, {
      server: this.serverName,
      caller: options.caller ?? callerLabel(caller),
      locale: locale ?? DEFAULT_LOCALE,
    });
  }

  /**
   * Closes what this client opened: the client from `connect()` closes every connection
   * of the clients made from it (`as()`, `onServer()`) and the listener the kit opened;
   * one of those closes its own connection.
   */
  async close(): Promise<void> {
    if (this.root) await this.session.close();
    else await this.session.closeConnection(this.identity);
  }

  private derive(change: Partial<ClientIdentity>): McpTestClient {
    return new McpTestClient(this.session, { ...this.identity, ...change }, false);
  }

  private request<R>(
    method: string,
    params: Record<string, unknown> | undefined,
    label: string,
  ): McpTestRequest<R> {
    return new McpTestRequest<R>(
      label,
      (hooks) =>
        this.session.exchange(this.identity, method, params, hooks) as Promise<McpTestAnswer<R>>,
    );
  }

  /** A list request that follows `nextCursor` to the last page and joins the pages. */
  private list<R>(method: ContractListMethod, label: string): McpTestRequest<R> {
    const field = LIST_FIELDS[method];
    return new McpTestRequest<R>(label, async (hooks: McpTestHooks) => {
      const items: unknown[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const answer = await this.session.exchange(
          this.identity,
          method,
          cursor === undefined ? undefined : { cursor },
          hooks,
        );
        if (answer.error) return answer as McpTestAnswer<R>;
        const result = answer.result ?? {};
        items.push(...((result[field] as unknown[]) ?? []));
        const next = result.nextCursor;
        if (typeof next !== 'string' || next === '') {
          const { nextCursor: _last, ...rest } = result;
          return { ...answer, params: undefined, result: { ...rest, [field]: items } as R };
        }
        if (seen.has(next)) {
          throw new Error(`${method} returned the cursor "${next}" twice: its pages never end.`);
        }
        seen.add(next);
        cursor = next;
      }
      throw new Error(`${method} still had a next page after ${MAX_PAGES} pages.`);
    });
  }
}

const describe = (value: unknown): string => JSON.stringify(value);
