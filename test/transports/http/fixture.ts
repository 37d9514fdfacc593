import {
  ProtocolError,
  ProtocolErrorCode,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
import {
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  Module,
  NotFoundException,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import {
  inputRequired,
  McpCompletion,
  McpContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpScopes,
  McpTool,
  McpToolError,
  textContent,
  type McpCallContext,
} from 'nestjs-mcp';
import {
  AddArgs,
  EchoArgs,
  ItemArgs,
  ItemOut,
  ResourceItemParams,
  SummarizeArgs,
} from './fixture.dto.js';
import { PlainTools, RequestTools, SessionTools } from './fixture-servers.js';

// The app the differential test (differential.e2e-spec.ts) starts twice, once per
// `http.leanPath`. Everything it answers is a pure function of the request, so that two
// instances answer alike: no clocks, no random ids, no counters, no signed request state
// (its key is random per process and its expiry is a timestamp).

/**
 * The endpoint's guard: `Bearer banned` is refused with 401, any other caller passes;
 * `Bearer admin` becomes the admin, with the scopes of the `X-Scopes` header.
 */
@Injectable()
export class EndpointGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, string | undefined>;
      user?: unknown;
    }>();
    const token = request.headers.authorization?.replace(/^Bearer /, '');
    if (token === 'banned') throw new UnauthorizedException('This token is banned');
    const scopes = request.headers['x-scopes']?.split(' ').filter(Boolean) ?? [];
    request.user = { role: token ?? 'anonymous', scopes };
    return true;
  }
}

/** A tool and prompt guard: only the admin passes; `Bearer intruder` gets a 403 exception. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ user?: { role: string } }>();
    if (request.user?.role === 'intruder') throw new ForbiddenException('Intruders may not');
    return request.user?.role === 'admin';
  }
}

@Injectable()
export class DifferentialTools {
  @McpTool({ description: 'Adds two whole numbers.', output: Number, aliases: ['plus'] })
  add(args: AddArgs): number {
    return args.a + args.b;
  }

  @McpTool({ description: 'Echoes a message and what the call context says.' })
  echo(args: EchoArgs, @McpContext() call: McpCallContext) {
    return {
      message: args.message,
      note: args.note?.text ?? null,
      era: call.era,
      tool: call.name,
      requestId: call.requestId,
      locale: call.locale,
    };
  }

  @McpTool({ name: 'describe_item', description: 'Describes an item.', output: ItemOut })
  describeItem(args: ItemArgs): ItemOut {
    if (args.id > 100) throw new NotFoundException(`No item ${args.id}`);
    return { id: args.id, name: `Item ${args.id}`, inStock: args.id % 2 === 0 };
  }

  @McpTool({ description: 'Lists tags (an array output).', output: [String] })
  tags(): string[] {
    return ['red', 'green'];
  }

  @McpTool({ description: 'Declares an item but returns something else.', output: ItemOut })
  broken_output() {
    return { id: 'seven', name: 7 } as unknown as ItemOut;
  }

  @McpTool({ description: 'Returns nothing.' })
  nothing(): void {}

  @McpTool({ description: 'Returns content blocks.' })
  blocks() {
    return [textContent('one'), textContent('two')];
  }

  @McpTool({ description: 'Fails with an error that must not leak.' })
  explode(): never {
    throw new Error('database password=hunter2');
  }

  @McpTool({ description: 'Fails with a message for the model.' })
  refuse(): never {
    throw new McpToolError('The warehouse is closed.', { reopensAt: '08:00' });
  }

  @McpTool({ description: 'Needs the user to sign in at a URL first (-32042).' })
  sign_in(): never {
    throw new UrlElicitationRequiredError([
      { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' },
    ]);
  }

  @McpTool({ description: 'Fails with a protocol error of its own.' })
  gone(): never {
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, 'Gone', { uri: 'diff://gone' });
  }

  @McpTool({ description: 'Fails with an HttpException.' })
  forbidden(): never {
    throw new ForbiddenException('Not today');
  }

  @McpTool({ description: 'Only the admin may purge.', annotations: { destructiveHint: true } })
  @UseGuards(AdminGuard)
  purge() {
    return 'purged';
  }

  @McpTool({ description: 'Needs the notes.write scope.' })
  @McpScopes('notes.write')
  write_note() {
    return 'written';
  }

  @McpTool({ description: 'Reports progress and logs, when the client asks for them.' })
  async progress(@McpContext() call: McpCallContext) {
    await call.reportProgress(1, 2, 'half');
    await call.log('info', 'working');
    await call.reportProgress(2, 2, 'done');
    return 'finished';
  }

  @McpTool({ description: 'Sends a notification of its own, asked for or not.' })
  async announce(@McpContext() call: McpCallContext) {
    await call.serverContext.mcpReq.notify({
      method: 'notifications/message',
      params: { level: 'notice', data: 'announced' },
    });
    return 'announced';
  }

  @McpTool({ description: 'Asks the user to confirm.' })
  confirm(@McpContext() call: McpCallContext) {
    const answer = call.acceptedInput<{ ok: boolean }>('confirm');
    if (!answer) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({
            message: 'Sure?',
            requestedSchema: {
              type: 'object',
              properties: { ok: { type: 'boolean' } },
              required: ['ok'],
            },
          }),
        },
      });
    }
    return answer.ok ? 'confirmed' : 'declined';
  }
}

@Injectable()
export class DifferentialPrompts {
  @McpPrompt({ description: 'Summarizes a category.' })
  summarize(args: SummarizeArgs) {
    return `Summarize ${args.category}${args.topic ? ` about ${args.topic}` : ''}.`;
  }

  @McpPrompt({ description: 'Greets.' })
  greeting() {
    return 'Hello!';
  }

  @McpPrompt({ description: 'Only for the admin.' })
  @UseGuards(AdminGuard)
  briefing() {
    return 'Brief the admin.';
  }

  @McpPrompt({ description: 'Always fails.' })
  broken_prompt(): string {
    throw new Error('prompt store offline, password=hunter2');
  }

  @McpCompletion({ prompt: 'summarize', argument: 'topic' })
  topics(prefix: string) {
    return ['history', 'hiking', 'horror', 'maps'].filter((topic) => topic.startsWith(prefix));
  }

  @McpResource({ uri: 'diff://readme', description: 'The readme.', mimeType: 'text/markdown' })
  readme() {
    return '# Differential';
  }

  @McpResource({ uri: 'diff://config', mimeType: 'application/json' })
  config() {
    return { mode: 'test', retries: 3 };
  }

  @McpResource({ uri: 'diff://blob', mimeType: 'application/octet-stream' })
  blob() {
    return Buffer.from([0, 1, 2, 254, 255]);
  }

  @McpResource({ uri: 'diff://secret', description: 'Only for the admin.' })
  @UseGuards(AdminGuard)
  secret() {
    return 'the admin secret';
  }

  @McpResource({ uri: 'diff://failing' })
  failing(): string {
    throw new Error('disk failure, password=hunter2');
  }

  @McpResource({ uri: 'diff://items/{id}', description: 'One item.' })
  item(params: ResourceItemParams) {
    if (params.id > 100) throw new NotFoundException(`No item ${params.id}`);
    return { id: params.id };
  }
}

/** German texts for some entries and messages: answers with `Content-Language: de`. */
export const translations = {
  locales: () => ['de'],
  load: (locale: string) =>
    locale === 'de'
      ? {
          add: { description: 'Addiert zwei ganze Zahlen.' },
          summarize: { description: 'Fasst eine Kategorie zusammen.' },
          _server: { instructions: 'Differenzieller Test.' },
          _messages: { unknownTool: 'Unbekanntes Werkzeug "$name".' },
        }
      : undefined,
};

/** The OAuth server's token check: `good-*` tokens carry the scopes after the dash. */
async function verifyToken(token: string) {
  if (!token.startsWith('good')) throw new Error('unknown token');
  const scopes = token.split('-').slice(1);
  return { token, clientId: 'differential', scopes, expiresAt: 4_102_444_800 };
}

@Injectable()
export class OAuthTools {
  @McpTool({ description: 'Reads the catalog.', group: 'oauth' })
  @McpScopes('catalog.read')
  read_catalog() {
    return 'catalog';
  }

  @McpTool({ description: 'Anyone with a token.', group: 'oauth' })
  hello() {
    return 'hello';
  }
}

/** The page size of the lists: small, so that every list has several pages. */
export const PAGE_SIZE = 3;

/** The paths of the servers, by the name the corpus gives them. */
export const SERVER_PATHS = {
  main: 'mcp',
  oauth: 'oauth/mcp',
  sessions: 'sessions/mcp',
  plain: 'plain/mcp',
};

/** The app, with every request on the lean path (`true`) or through the SDK (`false`). */
export function differentialModule(leanPath: boolean): DynamicModule {
  @Module({})
  class DifferentialModule {}
  return {
    module: DifferentialModule,
    imports: [
      McpModule.forRoot({
        name: 'differential',
        version: '1.0.0',
        instructions: 'Differential test.',
        pageSize: PAGE_SIZE,
        http: {
          path: SERVER_PATHS.main,
          guards: [EndpointGuard],
          leanPath,
          maxBodyBytes: 64 * 1024,
        },
        i18n: { defaultLocale: 'en', translations },
      }),
      McpModule.forRoot({
        name: 'differential-oauth',
        version: '1.0.0',
        group: 'oauth',
        http: { path: SERVER_PATHS.oauth, leanPath },
        auth: {
          authorizationServers: ['https://auth.example.com'],
          resource: 'https://mcp.example.com/oauth/mcp',
          verifyToken,
        },
      }),
      McpModule.forRoot({
        name: 'differential-sessions',
        version: '1.0.0',
        group: 'sessions',
        pageSize: PAGE_SIZE,
        http: { path: SERVER_PATHS.sessions, leanPath, legacySessions: true },
      }),
      McpModule.forRoot({
        name: 'differential-plain',
        version: '1.0.0',
        group: 'plain',
        pageSize: PAGE_SIZE,
        http: { path: SERVER_PATHS.plain, leanPath },
        i18n: { defaultLocale: 'en', translations },
      }),
    ],
    providers: [
      DifferentialTools,
      DifferentialPrompts,
      OAuthTools,
      SessionTools,
      PlainTools,
      RequestTools,
      AdminGuard,
      EndpointGuard,
    ],
  };
}
