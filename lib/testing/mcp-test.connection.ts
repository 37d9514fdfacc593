import {
  Client,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  StreamableHTTPClientTransport,
  type RequestOptions,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import type { INestApplicationContext } from '@nestjs/common';
import type { McpProtocolRuntime } from '../protocol/protocol-runtime.interface.js';
import {
  authenticateCaller,
  CallerRefusedError,
  resolveCallerRequest,
} from '../transports/caller.authenticator.js';
import { connectInProcess } from '../transports/server.connection.js';
import {
  TRANSPORT_REFUSAL_CODE,
  type McpTestAnswer,
  type McpTestError,
} from './mcp-test-answer.js';
import type { McpQuestion, McpTestHooks } from './mcp-test.hooks.js';
import { EXCHANGE_HEADER, RecordingFetch, type RecordedExchange } from './recording.fetch.js';

/** The protocol revisions the kit speaks: 2026-07-28 statelessly, the others after `initialize`. */
export const MCP_TEST_PROTOCOL_VERSIONS = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
] as const;
export type McpTestProtocolVersion = (typeof MCP_TEST_PROTOCOL_VERSIONS)[number];

/** Where a connection goes: the app's endpoint over HTTP, or the server itself in memory. */
export type ConnectionTarget =
  | { readonly kind: 'http'; readonly url: URL }
  | {
      readonly kind: 'memory';
      readonly app: INestApplicationContext;
      readonly runtime: McpProtocolRuntime;
    };

export interface ConnectionSettings {
  readonly protocolVersion: McpTestProtocolVersion;
  /** Header names lower-cased; `accept-language` carries the locale. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Takes any result as it came: the kit shows what the server answered, not the SDK's reading of it. */
const AS_ANSWERED: StandardSchemaV1<unknown, Record<string, any>> = {
  '~standard': {
    version: 1,
    vendor: 'nestjs-mcp',
    validate: (value) => ({ value: value as Record<string, any> }),
  },
};

/** Opening a connection was refused before any request (a guard of the endpoint, or of the caller). */
export class ConnectionRefused {
  constructor(
    readonly error: McpTestError,
    readonly response?: RecordedExchange,
  ) {}
}

/**
 * One connection of the real MCP SDK client (`@modelcontextprotocol/client`) to one server
 * of the app, for one caller: over the app's HTTP endpoint through `fetch`, or in memory
 * through the SDK's linked transport pair into a server from the same factory that stdio
 * uses. Requests go through `client.request()`, so a JSON-RPC error comes back as an
 * answer, and the SDK's own handling of both eras (handshake, `_meta` envelope, multi
 * round-trip input requests) applies.
 */
export class McpTestConnection {
  private sequence = 0;
  /** The hooks of the requests in flight, which notifications and input requests go to. */
  private readonly active = new Set<McpTestHooks>();
  private logsEnabled?: Promise<unknown>;

  private constructor(
    private readonly client: Client,
    private readonly recorder: RecordingFetch | undefined,
    private readonly release: () => Promise<void>,
  ) {}

  /** Connects (the handshake of the protocol version); a refusal resolves to {@link ConnectionRefused}. */
  static async open(
    target: ConnectionTarget,
    settings: ConnectionSettings,
  ): Promise<McpTestConnection | ConnectionRefused> {
    const client = createClient(settings.protocolVersion);
    const connection = (recorder: RecordingFetch | undefined, release: () => Promise<void>) =>
      new McpTestConnection(client, recorder, release);
    if (target.kind === 'http') {
      const recorder = new RecordingFetch();
      const transport = new StreamableHTTPClientTransport(target.url, {
        fetch: recorder.fetch,
        requestInit: { headers: { ...settings.headers } },
      });
      const opened = connection(recorder, async () => {
        await transport.terminateSession().catch(() => undefined);
      });
      opened.listen();
      try {
        await client.connect(transport);
      } catch (error) {
        await client.close().catch(() => undefined);
        const refused = recorder.last && recorder.last.status >= 400 ? recorder.last : undefined;
        if (refused) return new ConnectionRefused(refusalError(refused), refused);
        throw error;
      }
      return opened;
    }
    const request = await resolveCallerRequest({ headers: { ...settings.headers } });
    try {
      await authenticateCaller(target.app, target.runtime, request);
    } catch (error) {
      if (!(error instanceof CallerRefusedError)) throw error;
      return new ConnectionRefused({ code: TRANSPORT_REFUSAL_CODE, message: error.message });
    }
    // The stdio entry decides the era from the opening message, as for a real stdio client.
    const connected = connectInProcess(target.runtime, { request });
    const opened = connection(undefined, () => connected.close());
    opened.listen();
    await client.connect(connected.client as Transport);
    return opened;
  }

  /** Sends one request; a JSON-RPC error or an HTTP refusal is an answer, anything else throws. */
  async exchange(
    method: string,
    params: Record<string, unknown> | undefined,
    hooks: McpTestHooks,
  ): Promise<McpTestAnswer> {
    const exchange = String(++this.sequence);
    const options: RequestOptions = {
      headers: { [EXCHANGE_HEADER]: exchange },
      ...(hooks.onProgress && { onprogress: hooks.onProgress }),
    };
    let sent = params;
    if (hooks.onLog) {
      if (this.client.getProtocolEra() === 'modern') {
        const meta = { ...(params?._meta as object), [LOG_LEVEL_META_KEY]: 'debug' };
        sent = { ...params, _meta: meta };
      } else {
        // 2025: the level is the connection's, set once (a session or in memory keeps it).
        this.logsEnabled ??= this.client.setLoggingLevel('debug').catch(() => undefined);
        await this.logsEnabled;
      }
    }
    this.active.add(hooks);
    try {
      const result = await this.client.request(
        { method, ...(sent && { params: sent }) },
        AS_ANSWERED,
        options,
      );
      return withResponse({ method, params, result }, this.recorder?.take(exchange));
    } catch (error) {
      const response = this.recorder?.take(exchange) ?? this.recorder?.last;
      if (ProtocolError.isInstance(error)) {
        const { code, message, data } = error as ProtocolError;
        const answered = { code, message, ...(data !== undefined && { data }) };
        return withResponse({ method, params, error: answered }, response);
      }
      if (response && response.status >= 400) {
        return withResponse({ method, params, error: refusalError(response) }, response);
      }
      throw error;
    } finally {
      this.active.delete(hooks);
    }
  }

  async close(): Promise<void> {
    await this.release().catch(() => undefined);
    await this.client.close().catch(() => undefined);
  }

  /** Log notifications and input requests go to the requests in flight. */
  private listen(): void {
    this.client.setNotificationHandler('notifications/message', (notification) => {
      for (const hooks of this.active) hooks.onLog?.(notification.params);
    });
    this.client.setRequestHandler('elicitation/create', (request) =>
      this.ask({ method: 'elicitation/create', params: request.params }),
    );
    this.client.setRequestHandler('sampling/createMessage', (request) =>
      this.ask({ method: 'sampling/createMessage', params: request.params }),
    );
  }

  private async ask(question: McpQuestion): Promise<any> {
    const answerer = [...this.active].toReversed().find((hooks) => hooks.answer)?.answer;
    if (!answerer) {
      const about =
        question.method === 'elicitation/create'
          ? `"${question.params.message}"`
          : 'a sampling request';
      throw new Error(
        `The server asked for input (${question.method}: ${about}) and this request has no ` +
          `answer: add .answer((question) => ({ action: 'accept', content: { ... } })) to it.`,
      );
    }
    return answerer(question);
  }
}

function createClient(version: McpTestProtocolVersion): Client {
  const modern = version === '2026-07-28';
  return new Client(
    { name: 'nestjs-mcp-testing', version: '1.0.0' },
    {
      // Declared so that tools that ask only clients able to answer do ask; `answer()` answers.
      capabilities: { elicitation: { form: {} }, sampling: {} },
      ...(modern
        ? { versionNegotiation: { mode: { pin: version } } }
        : { supportedProtocolVersions: [version] }),
    },
  );
}

function withResponse(answer: McpTestAnswer, recorded?: RecordedExchange): McpTestAnswer {
  if (!recorded) return answer;
  return { ...answer, response: { status: recorded.status, headers: recorded.headers } };
}

/**
 * The error of a refused HTTP exchange: the JSON-RPC error of its body, or the message of
 * a Nest exception body (`{ statusCode, message }`), or the body's text.
 */
export function refusalError(recorded: RecordedExchange): McpTestError {
  const text = recorded.body ?? '';
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body?.error?.code === 'number' && typeof body.error.message === 'string') {
    const { code, message, data } = body.error;
    return { code, message, ...(data !== undefined && { data }) };
  }
  const message = Array.isArray(body?.message) ? body.message.join('; ') : body?.message;
  return {
    code: TRANSPORT_REFUSAL_CODE,
    message: `HTTP ${recorded.status}: ${typeof message === 'string' ? message : text || 'no body'}`,
    data: { status: recorded.status, body: body ?? text },
  };
}
