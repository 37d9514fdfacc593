import {
  Body,
  type CallHandler,
  type CanActivate,
  Catch,
  Controller,
  createParamDecorator,
  type ExceptionFilter,
  type ExecutionContext,
  Injectable,
  type INestApplication,
  type NestInterceptor,
  type PipeTransform,
  Post,
  UseFilters,
  UseInterceptors,
  UsePipes,
  ValidationPipe,
  Module,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ApiOperation } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { McpExecutionContext, McpModule, McpTool, type McpContextType } from 'nestjs-mcp';
import { McpTestClient } from 'nestjs-mcp/testing';
import { map, type Observable } from 'rxjs';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { captureLogs } from '../support/captured-logs.js';
import { ADAPTERS, startApp } from '../support/fixture-app.js';

// An error logged that no test expects fails that test (and is shown in full).
const logs = captureLogs();

const seen: {
  guard: string[];
  interceptor: Array<{ tool: string; args: unknown; http: boolean }>;
} = { guard: [], interceptor: [] };

class NoteDto {
  @IsString()
  @MaxLength(40)
  text!: string;
}

class DomainError extends Error {}

@Injectable()
class GlobalRecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    seen.guard.push(context.getType<McpContextType>());
    const httpRequest = context
      .switchToHttp()
      .getRequest<{ user?: unknown; headers: Record<string, string> }>();
    httpRequest.user = { name: httpRequest.headers['x-user'] ?? 'anonymous' };
    return true;
  }
}

@Injectable()
class GlobalRecordingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const mcp = McpExecutionContext.create(context);
    if (mcp.isMcp())
      seen.interceptor.push({
        tool: mcp.getName(),
        args: mcp.getArguments(),
        http: mcp.getRequest() !== undefined,
      });
    return next.handle();
  }
}

@Injectable()
class ShoutInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next
      .handle()
      .pipe(map((value) => (typeof value === 'string' ? value.toUpperCase() : value)));
  }
}

@Injectable()
class TrimPipe implements PipeTransform {
  transform(value: unknown) {
    if (value instanceof NoteDto) value.text = value.text.trim();
    return value;
  }
}

@Catch(DomainError)
class DomainErrorFilter implements ExceptionFilter {
  catch(error: DomainError) {
    return {
      content: [{ type: 'text', text: `handled by filter: ${error.message}` }],
      isError: true,
    };
  }
}

const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest().user,
);

@Injectable()
@UseInterceptors(ShoutInterceptor)
class NotesService {
  @McpTool({ description: 'Shout a note back.' })
  @UsePipes(TrimPipe)
  shout(note: NoteDto, @CurrentUser() user: { name: string }) {
    return `${user.name}: ${note.text} (${note.constructor.name})`;
  }

  @McpTool({ description: 'Fails with a domain error.' })
  @UseFilters(DomainErrorFilter)
  failDomain() {
    throw new DomainError('stock is negative');
  }

  @ApiOperation({
    summary: 'Count notes',
    description: 'Counts the notes (described by @ApiOperation).',
  })
  @McpTool()
  countNotes() {
    return 3;
  }
}

@Controller('notes')
class NotesController {
  @Post()
  @McpTool({ name: 'create_note', description: 'Create a note (also a REST route).' })
  create(@Body() note: NoteDto) {
    return { created: note.text, isDto: note instanceof NoteDto };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'pipeline', version: '1.0.0' })],
  controllers: [NotesController],
  providers: [
    NotesService,
    { provide: APP_GUARD, useClass: GlobalRecordingGuard },
    { provide: APP_INTERCEPTOR, useClass: GlobalRecordingInterceptor },
  ],
})
class PipelineAppModule {}

describe.each(ADAPTERS)('on %s', (adapter) => {
  describe.each(['2025-11-25', '2026-07-28'] as const)(
    'the Nest pipeline on tool calls, %s',
    (protocolVersion) => {
      let app: INestApplication;
      let mcp: McpTestClient;

      beforeAll(async () => {
        const running = await startApp(PipelineAppModule, {
          adapter,
          logger: logs,
          configure: (created) =>
            created.useGlobalPipes(new ValidationPipe({ whitelist: true, transform: true })),
        });
        app = running.app;
        mcp = await McpTestClient.connect(app, { protocolVersion });
      });

      afterAll(async () => {
        await mcp?.close();
        await app?.close();
      });

      beforeEach(() => {
        seen.guard = [];
        seen.interceptor = [];
      });

      it('runs global guards and interceptors, class interceptors, method pipes and custom param decorators', async () => {
        await mcp
          .callTool('shout', { text: '  hello  ' })
          .assertOk()
          .assertText('ANONYMOUS: HELLO (NOTEDTO)');
        expect(seen.guard).toContain('mcp');
        expect(seen.interceptor).toEqual([
          { tool: 'shout', args: { text: '  hello  ' }, http: true },
        ]);
      });

      it('gives the guards the caller of each request', async () => {
        await mcp
          .as({ 'x-user': 'ada' })
          .callTool('shout', { text: 'hi' })
          .assertText('ADA: HI (NOTEDTO)');
      });

      it('still validates with the tool DTO when the app has a global ValidationPipe', async () => {
        await mcp.callTool('shout', { text: 'x'.repeat(41) }).assertError('/text');
      });

      it("uses an exception filter's result as the tool result", async () => {
        await mcp
          .callTool('fail_domain')
          .assertError()
          .assertText('handled by filter: stock is negative');
      });

      it('takes title and description from @ApiOperation when @McpTool has none', async () => {
        const { result } = await mcp.listTools().assertToolListed('count_notes');
        expect(result?.tools.find((tool) => tool.name === 'count_notes')).toMatchObject({
          title: 'Count notes',
          description: 'Counts the notes (described by @ApiOperation).',
        });
      });

      it('publishes a controller method as a tool while it stays a REST route', async () => {
        await mcp
          .callTool('create_note', { text: 'from mcp' })
          .assertOk()
          .assertStructured({ created: 'from mcp', isDto: true });
        const viaRest = await request(app.getHttpServer())
          .post('/notes')
          .send({ text: 'from rest' });
        expect(viaRest.status).toBe(201);
        expect(viaRest.body).toEqual({ created: 'from rest', isDto: true });
        // A global guard runs on the MCP route itself ('http'), on the tool call ('mcp'), and on
        // the REST route ('http').
        expect(seen.guard).toEqual(['http', 'mcp', 'http']);
      });
    },
  );
});
