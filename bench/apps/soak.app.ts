import {
  ForbiddenException,
  Injectable,
  Module,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { IsIn, IsString, Length } from 'class-validator';
import { setTimeout as pause } from 'node:timers/promises';
import {
  McpContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpTool,
  type McpCallContext,
  type McpModuleOptions,
} from 'nestjs-mcp';
import { ADD_NUMBERS_DESCRIPTION, AddNumbersDto, addNumbersText } from './add-numbers.js';

// The soak's app (bench/soak.ts): a little of everything a production server meets, so
// that a million requests go through every stage of the library, not one hot path.

/** The endpoint path with 2025 sessions; `/mcp` serves both eras statelessly. */
export const SOAK_SESSIONS_PATH = 'mcp/sessions';
/** How long the slow tool waits unless its call is cancelled: far past any cancel. */
export const SLOW_TOOL_MS = 10_000;
/** Steps the progress tool reports, one notification each. */
export const PROGRESS_STEPS = 3;

/** Calls the driver cannot see from its side: whether cancellations reached the tools. */
export const soakCounters = { slowStarted: 0, slowAborted: 0, slowFinished: 0, tasksRun: 0 };

const token = (request: { headers: Record<string, string | undefined> }) =>
  request.headers.authorization ?? '';

/** The endpoint's guard: callers whose token is blocked never reach MCP (HTTP 403). */
const blockedCallers: CanActivate = {
  canActivate(context: ExecutionContext) {
    if (token(context.switchToHttp().getRequest()).startsWith('Bearer blocked-')) {
      throw new ForbiddenException('This token is blocked; use a client token.');
    }
    return true;
  },
};

/** A method's guard: only admin tokens may reset (others get an `isError` result). */
@Injectable()
class AdminOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (token(context.switchToHttp().getRequest()).startsWith('Bearer admin-')) return true;
    throw new ForbiddenException('Only an admin token may reset the counters.');
  }
}

export class LookupDto {
  @IsString()
  @Length(1, 32)
  id!: string;
}

export class ReportDto {
  @IsIn(['daily', 'weekly'])
  period!: 'daily' | 'weekly';
}

export class SummaryArgs {
  @IsString()
  @Length(1, 32)
  topic!: string;
}

@Injectable()
export class SoakTools {
  @McpTool({ description: ADD_NUMBERS_DESCRIPTION, annotations: { readOnlyHint: true } })
  addNumbers(input: AddNumbersDto): string {
    return addNumbersText(input);
  }

  @McpTool({ description: 'Look an item up by its id.', annotations: { readOnlyHint: true } })
  lookupItem({ id }: LookupDto) {
    return { id, name: `Item ${id}`, stock: id.length * 7 };
  }

  @McpTool({ description: 'Reset the counters (admin tokens only).' })
  @UseGuards(AdminOnly)
  resetCounters(): string {
    return 'reset';
  }

  @McpTool({ description: 'Count up, reporting each step as progress.' })
  async countUp(@McpContext() ctx: McpCallContext): Promise<string> {
    for (let step = 1; step <= PROGRESS_STEPS; step += 1) {
      await ctx.reportProgress(step, PROGRESS_STEPS, `step ${step}`);
      await pause(1);
    }
    return `counted to ${PROGRESS_STEPS}`;
  }

  /** Reports that it started (the client cancels on it), then waits to be cancelled. */
  @McpTool({ description: 'Wait a long time; made to be cancelled.' })
  async slowWait(@McpContext() ctx: McpCallContext): Promise<string> {
    soakCounters.slowStarted += 1;
    await ctx.reportProgress(1, 2, 'started');
    try {
      await pause(SLOW_TOOL_MS, undefined, { signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) soakCounters.slowAborted += 1;
      throw error;
    }
    soakCounters.slowFinished += 1;
    return 'waited';
  }

  @McpTool({ description: 'Build a report in the background.', task: 'required' })
  async buildReport({ period }: ReportDto, @McpContext() ctx: McpCallContext): Promise<string> {
    await ctx.task?.setStatus('Building');
    await pause(20, undefined, { signal: ctx.signal });
    soakCounters.tasksRun += 1;
    return `${period} report: 42 rows`;
  }

  @McpPrompt({ description: 'Summarise a topic.', arguments: { topic: 'What to summarise.' } })
  summary({ topic }: SummaryArgs): string {
    return `Summarise ${topic} in three sentences.`;
  }

  @McpResource({ uri: 'soak://status', description: 'The server status.', mimeType: 'text/plain' })
  status(): string {
    return 'all good';
  }
}

// Tasks expire 10 s after they start (a soak task is read within a second), so that the
// store reaches its steady size early in the run, and expiry runs all along.
const common = {
  version: '1.0.0',
  tasks: { ttlMs: 10_000, pollIntervalMs: 20 },
} satisfies Partial<McpModuleOptions>;

/**
 * Two servers over the same entries: `/mcp` serves 2026-07-28 and stateless 2025-11-25
 * (a server with sessions routes all 2025 traffic to them), `/mcp/sessions` 2025 sessions.
 */
@Module({
  imports: [
    McpModule.forRoot({ ...common, name: 'soak', http: { guards: [blockedCallers] } }),
    McpModule.forRoot({
      ...common,
      name: 'soak-sessions',
      http: { path: SOAK_SESSIONS_PATH, guards: [blockedCallers], legacySessions: true },
    }),
  ],
  providers: [SoakTools, AdminOnly],
})
export class SoakAppModule {}
