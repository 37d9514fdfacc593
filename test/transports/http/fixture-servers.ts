import {
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  type NestInterceptor,
  Scope,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { McpContext, McpPrompt, McpResource, McpTool, type McpCallContext } from 'nestjs-mcp';
import { AddArgs, ResourceItemParams } from './fixture.dto.js';

// The entries of the differential app's smaller servers (fixture.ts).

/** The server that keeps 2025 sessions (`http.legacySessions`). */
@Injectable()
export class SessionTools {
  @McpTool({ description: 'Adds two whole numbers.', group: 'sessions', output: Number })
  add(args: AddArgs): number {
    return args.a + args.b;
  }

  @McpTool({ description: 'Says which era called.', group: 'sessions' })
  era(@McpContext() call: McpCallContext) {
    return { era: call.era, requestId: call.requestId };
  }

  @McpPrompt({ description: 'Greets.', group: 'sessions' })
  hello() {
    return 'Hello from a session server.';
  }

  @McpResource({ uri: 'sessions://notes', group: 'sessions' })
  notes() {
    return 'notes';
  }
}

/**
 * The server without guards or sessions: every caller sees the same lists (the lean path
 * may keep them as text), in English or German, with task tools.
 */
@Injectable()
export class PlainTools {
  @McpTool({
    description: 'Adds two whole numbers.',
    group: 'plain',
    output: Number,
    aliases: ['sum'],
  })
  add(args: AddArgs): number {
    return args.a + args.b;
  }

  @McpTool({ description: 'Says who called, in which language.', group: 'plain' })
  whoami(@McpContext() call: McpCallContext) {
    return { era: call.era, locale: call.locale, requestId: call.requestId };
  }

  @McpTool({ description: 'A report, as a task if asked.', group: 'plain', task: 'optional' })
  report() {
    return 'the report';
  }

  @McpTool({ description: 'An export, always a task.', group: 'plain', task: 'required' })
  export_all() {
    return 'exported';
  }

  /** Published at run time by the spec (McpServerHost.addTool), not by a decorator. */
  spare() {
    return 'spare';
  }

  @McpPrompt({ description: 'Briefs.', group: 'plain' })
  brief() {
    return 'Brief.';
  }

  @McpPrompt({ description: 'Greets.', group: 'plain' })
  greeting() {
    return 'Hello.';
  }

  @McpResource({ uri: 'plain://readme', group: 'plain' })
  readme() {
    return 'plain readme';
  }

  @McpResource({ uri: 'plain://items/{id}', group: 'plain' })
  item(params: ResourceItemParams) {
    return { id: params.id };
  }
}

/** A rate limiter, as guards of that kind do it: `Retry-After` on the response, then 429. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const response = context
      .switchToHttp()
      .getResponse<{ setHeader(n: string, v: string): void }>();
    response.setHeader('Retry-After', '30');
    throw new HttpException('Too many calls', HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Wraps a tool's result, as an app's interceptor may. */
@Injectable()
export class WrapInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((value) => ({ wrapped: value })));
  }
}

/** The main server's tools that look at the request: what a tool sees must not differ. */
@Injectable({ scope: Scope.REQUEST })
export class RequestTools {
  constructor(
    @Inject(REQUEST) private readonly request: { headers: Record<string, unknown>; url?: string },
  ) {}

  @McpTool({ description: 'Shows what a tool sees of its call and request.' })
  inspect(@McpContext() call: McpCallContext) {
    const { serverContext: server } = call;
    const web = server.http?.req;
    const platform = call.httpRequest as { method?: string; headers?: Record<string, unknown> };
    return {
      phase: call.phase,
      scopes: call.scopes,
      arguments: call.arguments,
      clientCapabilities: call.clientCapabilities ?? null,
      sessionId: server.sessionId ?? null,
      mcpReq: {
        id: server.mcpReq.id,
        method: server.mcpReq.method,
        meta: server.mcpReq._meta ?? null,
        envelope: server.mcpReq.envelope ?? null,
      },
      web: web && {
        method: web.method,
        // Without the origin: the two apps of the differential test listen on two ports.
        url: `${new URL(web.url).pathname}${new URL(web.url).search}`,
        trace: web.headers.get('x-trace'),
        authorization: web.headers.get('authorization'),
      },
      platform: { method: platform.method, trace: platform.headers?.['x-trace'] ?? null },
      injected: { url: this.request.url, trace: this.request.headers['x-trace'] ?? null },
    };
  }

  @McpTool({ description: 'Refused by a rate limiter.' })
  @UseGuards(RateLimitGuard)
  limited() {
    return 'never';
  }

  @McpTool({ description: 'Its result is wrapped by an interceptor.' })
  @UseInterceptors(WrapInterceptor)
  wrapped() {
    return 'inner';
  }
}
