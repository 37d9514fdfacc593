import {
  Catch,
  Inject,
  Injectable,
  NotFoundException,
  Scope,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import {
  McpCompletion,
  McpPrompt,
  McpResource,
  McpScopes,
  McpTool,
  ProtocolError,
  type McpCallContext,
} from 'nestjs-mcp';
import { map } from 'rxjs';
import { CatalogAssembler } from '../../lib/registry/catalog.assembler.js';
import { McpCall } from '../../lib/execution/mcp-call.js';
import { bootApp } from '../discovery/discovery-boot.js';
import { fakeScope } from '../support/fake-call.js';

/** What ran, in order, across guards, interceptors, pipes and methods (reset per test). */
export const trail: string[] = [];

/** Lets a caller through when its request says `x-role: admin`, as an HTTP guard reads it. */
@Injectable()
export class RoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers?: Record<string, string> }>();
    trail.push('guard');
    return request?.headers?.['x-role'] === 'admin';
  }
}

@Injectable()
export class TrailInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    trail.push('interceptor:before');
    return next.handle().pipe(
      map((value: unknown) => {
        trail.push('interceptor:after');
        return value;
      }),
    );
  }
}

@Injectable()
export class TrailPipe implements PipeTransform {
  transform(value: unknown) {
    trail.push('pipe');
    return value;
  }
}

/** Turns a NotFoundException into the answer the tool gives instead. */
@Catch(NotFoundException)
export class NotFoundAnswer implements ExceptionFilter {
  catch(exception: NotFoundException) {
    return `Nothing found: ${exception.message}`;
  }
}

export class ExportArgs {
  @IsInt()
  @Min(1)
  limit!: number;

  @IsOptional()
  @IsString()
  format?: string;
}

export class TopicArgs {
  @IsString()
  topic!: string;
}

export class ItemDto {
  @IsString()
  name!: string;
}

@Injectable()
export class AdminTools {
  @McpTool({ description: 'Exports.' })
  @UseGuards(RoleGuard)
  @UseInterceptors(TrailInterceptor)
  @UsePipes(TrailPipe)
  export(args: ExportArgs) {
    trail.push('method');
    return `exported ${args.limit}`;
  }

  @McpTool({ description: 'Open to all.' })
  open() {
    trail.push('method');
    return 'open';
  }

  @McpTool({ description: 'Finds nothing.' })
  @UseFilters(NotFoundAnswer)
  lookup() {
    throw new NotFoundException('no such item');
  }

  @McpTool({ description: 'Returns a broken item.', output: ItemDto })
  broken() {
    return { name: 42 };
  }

  @McpTool({ description: 'Fails upstream.', task: 'optional' })
  upstream() {
    throw new ProtocolError(-32050, 'Upstream unavailable');
  }

  @McpTool({ description: 'Exports later, on a queue.', task: 'optional' })
  @UseGuards(RoleGuard)
  queued(args: ExportArgs) {
    trail.push('method');
    return `queued ${args.limit}`;
  }

  @McpTool({ description: 'Needs the audit scope.', aliases: ['Admin.audit'] })
  @McpScopes('audit')
  audited() {
    return 'audited';
  }

  @McpPrompt({ description: 'A brief.' })
  brief() {
    return 'Write a brief.';
  }

  @McpResource({ uri: 'admin://items/{id}', name: 'item', description: 'One item.' })
  item(variables: Record<string, string>) {
    return `Item ${variables.id}.`;
  }
}

/** A new instance per call: it counts how many were made, and sees the request. */
@Injectable({ scope: Scope.REQUEST })
export class PerCallTools {
  static made = 0;
  readonly serial = ++PerCallTools.made;

  constructor(@Inject(REQUEST) private readonly request: unknown) {}

  @McpTool({ description: 'Which instance answers.' })
  which() {
    const isCall = this.request instanceof McpCall;
    return { serial: this.serial, request: isCall ? 'the call' : 'the HTTP request' };
  }

  @McpCompletion({ prompt: 'brief_for', argument: 'topic' })
  completeTopic(value: string, context: { call: McpCallContext }) {
    return [`${value}-${this.serial}`, context.call.name];
  }

  @McpPrompt({ description: 'A brief for a topic.' })
  brief_for(args: TopicArgs) {
    return `Write about ${args.topic}.`;
  }
}

/** Boots the fixture's app, with `options` for its one server. */
export async function bootPipelineApp(options: Record<string, unknown> = {}) {
  const booted = await bootApp([AdminTools, PerCallTools], {
    options: { name: 'admin', version: '1.0.0', http: false, ...options },
  });
  const catalog = booted.app.get(CatalogAssembler).catalog;
  const tool = (name: string) => {
    const found = catalog.tools.get(name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  return { ...booted, catalog, tool };
}

/** The fake scope of a caller whose platform request is `request` (none by default). */
export const scopeOf = (request?: unknown) => fakeScope(undefined, { transport: { request } });

export const ADMIN = { headers: { 'x-role': 'admin' } };
export const GUEST = { headers: { 'x-role': 'guest' } };
