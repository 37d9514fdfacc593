import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { McpEvents, type McpToolCalledEvent } from 'nestjs-mcp';
import type { Subscription } from 'rxjs';
import type { AuthenticatedUser, TokenUser } from '../auth/authenticated-user.interface.js';

/** How many calls the log keeps for `com.example/audit.recent`, the newest. */
export const RETAINED_CALLS = 100;

/** One executed tool call, as the audit extension gives it out. */
export interface AuditedCall {
  readonly at: string;
  readonly caller: string;
  readonly tool: string;
  readonly outcome: McpToolCalledEvent['outcome'];
  readonly durationMs: number;
}

/**
 * The audit log of tool calls: one line per executed call, written after its response was
 * sent (refused calls and cache hits are not executed calls), and the latest calls kept for
 * the audit extension (`catalog-audit.extension.ts`). A real app would write to its audit
 * store here.
 */
@Injectable()
export class ToolAuditLog implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Audit');
  private subscription?: Subscription;
  private readonly calls: AuditedCall[] = [];

  constructor(private readonly events: McpEvents) {}

  onModuleInit(): void {
    this.subscription = this.events.toolCalled.subscribe((event) => {
      // In the OAuth mode the client its access token was issued to, else a static token's role.
      const user = event.caller as Partial<AuthenticatedUser & TokenUser> | undefined;
      const caller = user?.clientId ?? user?.role ?? 'anonymous';
      this.logger.log(
        `${caller} called ${event.tool} (${event.outcome}, ${event.durationMs.toFixed(1)} ms) ` +
          `with ${JSON.stringify(event.arguments)}`,
      );
      this.calls.unshift({
        at: event.at.toISOString(),
        caller,
        tool: event.tool,
        outcome: event.outcome,
        durationMs: Math.round(event.durationMs * 10) / 10,
      });
      this.calls.length = Math.min(this.calls.length, RETAINED_CALLS);
    });
  }

  /** The latest calls, newest first, of one outcome or of any. */
  recent(limit: number, outcome?: AuditedCall['outcome']): AuditedCall[] {
    const calls = outcome ? this.calls.filter((call) => call.outcome === outcome) : this.calls;
    return calls.slice(0, limit);
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
