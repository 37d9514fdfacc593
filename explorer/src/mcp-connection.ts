import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequestFormParams,
  type ElicitResult,
  type Prompt,
  type Resource,
  type ResourceTemplateType,
  type Tool,
} from '@modelcontextprotocol/client';
import { recordingFetch, type RecordedRequest } from './recording-fetch.js';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';
const CLIENT_INFO = { name: 'nestjs-mcp-explorer', version: '1.0.0' };
const CAPABILITIES = {
  elicitation: { form: {} },
  extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } },
};

/** Who calls: what the page adds to every request, as an agent would. */
export interface Caller {
  token?: string;
  locale?: string;
}

/** A question the server asks (elicitation, or an input request of a task). */
export type Question = Pick<ElicitRequestFormParams, 'message' | 'requestedSchema'>;

export interface ConnectionEvents {
  onQuestion(question: Question): Promise<ElicitResult>;
  onLog(line: string): void;
  onRequest(request: RecordedRequest): void;
}

/** What the manifest resource says of a tool that `tools/list` does not. */
export interface ManifestEntry {
  scopes?: string[];
  scopeMatch?: string;
  aliases?: string[];
}

/** Everything this caller may see on the server. */
export interface Catalog {
  instructions?: string;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  templates: ResourceTemplateType[];
  manifest: Record<string, ManifestEntry>;
  /** Lists the server refused, with why. */
  problems: string[];
}

/** A JSON-RPC answer sent outside the SDK client (the tasks extension). */
export interface RawAnswer {
  result?: Record<string, any>;
  error?: { code: number; message: string; data?: unknown };
}

/** The answer of a POST: one JSON message, or the one with our id among the events of a stream. */
async function answerOf(response: Response, id: number): Promise<RawAnswer> {
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (type.includes('text/event-stream')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      const message = JSON.parse(data) as RawAnswer & { id?: number };
      if (message.id === id) return message;
    }
    throw new Error(`The stream of HTTP ${response.status} ended without an answer`);
  }
  if (type.includes('json')) return JSON.parse(text) as RawAnswer;
  throw new Error(`HTTP ${response.status}: ${text.slice(0, 200) || response.statusText}`);
}

/** One connection of one caller to one server, through the real endpoint. */
export class McpConnection {
  private nextId = 1;

  private constructor(
    readonly client: Client,
    private readonly url: URL,
    private readonly caller: Caller,
    private readonly fetchFn: typeof fetch,
  ) {}

  static async open(endpoint: string, caller: Caller, events: ConnectionEvents) {
    const url = new URL(endpoint, location.href);
    const fetchFn = recordingFetch(events.onRequest);
    const client = new Client(CLIENT_INFO, {
      capabilities: CAPABILITIES,
      versionNegotiation: { mode: 'auto' },
    });
    client.setRequestHandler('elicitation/create', async (request) =>
      events.onQuestion(request.params as Question),
    );
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      const text = typeof data === 'string' ? data : JSON.stringify(data);
      events.onLog(`${level}${logger ? ` ${logger}` : ''}: ${text}`);
    });
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: callerHeaders(caller) },
      fetch: fetchFn,
    });
    await client.connect(transport);
    return new McpConnection(client, url, caller, fetchFn);
  }

  /** Whether the server runs tools as tasks (the 2026-07-28 tasks extension). */
  supportsTasks(): boolean {
    const extensions = this.client.getServerCapabilities()?.extensions as
      Record<string, unknown> | undefined;
    return this.client.getProtocolEra() === 'modern' && !!extensions?.[TASKS_EXTENSION];
  }

  async loadCatalog(): Promise<Catalog> {
    const capabilities = this.client.getServerCapabilities() ?? {};
    const problems: string[] = [];
    const list = async <T>(what: string, present: unknown, load: () => Promise<T[]>) => {
      if (!present) return [];
      try {
        return await load();
      } catch (error) {
        problems.push(`${what}: ${(error as Error).message}`);
        return [];
      }
    };
    const options = { cacheMode: 'bypass' as const };
    const [tools, prompts, resources, templates] = await Promise.all([
      list(
        'tools',
        capabilities.tools,
        async () => (await this.client.listTools({}, options)).tools,
      ),
      list(
        'prompts',
        capabilities.prompts,
        async () => (await this.client.listPrompts({}, options)).prompts,
      ),
      list(
        'resources',
        capabilities.resources,
        async () => (await this.client.listResources({}, options)).resources,
      ),
      list(
        'templates',
        capabilities.resources,
        async () => (await this.client.listResourceTemplates({}, options)).resourceTemplates,
      ),
    ]);
    return {
      instructions: this.client.getInstructions(),
      tools,
      prompts,
      resources,
      templates,
      manifest: await this.readManifest(resources),
      problems,
    };
  }

  /** The scopes of each tool, from the server's manifest resource when it publishes one. */
  private async readManifest(resources: Resource[]): Promise<Record<string, ManifestEntry>> {
    const manifest = resources.find((resource) => /^mcp:\/\/[^?#]*\/manifest$/.test(resource.uri));
    if (!manifest) return {};
    try {
      const { contents } = await this.client.readResource({ uri: manifest.uri });
      const text = contents.find((content) => 'text' in content) as { text: string } | undefined;
      const parsed = JSON.parse(text?.text ?? '{}') as {
        tools?: (ManifestEntry & { name: string })[];
      };
      return Object.fromEntries((parsed.tools ?? []).map(({ name, ...entry }) => [name, entry]));
    } catch {
      return {};
    }
  }

  /**
   * One request sent as it is, with the caller's headers and the 2026-07-28 envelope declaring
   * the tasks extension: the SDK client does not speak that extension.
   */
  async raw(method: string, params: Record<string, unknown>, signal?: AbortSignal) {
    const id = this.nextId++;
    const version = this.client.getNegotiatedProtocolVersion() ?? '2026-07-28';
    const name = method === 'tools/call' ? params.name : params.taskId;
    const response = await this.fetchFn(this.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': version,
        'Mcp-Method': method,
        ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
        ...callerHeaders(this.caller),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': version,
            'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
            'io.modelcontextprotocol/clientCapabilities': {
              ...CAPABILITIES,
              extensions: { ...CAPABILITIES.extensions, [TASKS_EXTENSION]: {} },
            },
          },
        },
      }),
      signal,
    });
    return answerOf(response, id);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** The headers that make a request this caller's. */
export function callerHeaders(caller: Caller): Record<string, string> {
  return {
    ...(caller.token ? { Authorization: `Bearer ${caller.token}` } : {}),
    ...(caller.locale ? { 'Accept-Language': caller.locale } : {}),
  };
}
