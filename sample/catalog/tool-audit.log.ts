import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { McpEvents } from 'nestjs-mcp';
import type { Subscription } from 'rxjs';
import type { AuthenticatedUser, TokenUser } from '../auth/authenticated-user.interface.js';

/**
 * The audit log of tool calls: one line per executed call, written after its response was
 * sent (refused calls and cache hits are not executed calls). A real app would write to its
 * audit store here.
 */
@Injectable()
export class ToolAuditLog implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Audit');
  private subscription?: Subscription;

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
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
