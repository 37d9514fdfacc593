import { Module } from '@nestjs/common';
import { McpModule } from 'nestjs-mcp';
import { ContentToolsService } from './fixtures/content-tools.service.js';
import { ErrorToolsService } from './fixtures/error-tools.service.js';
import { InteractionToolsService } from './fixtures/interaction-tools.service.js';
import { MultiRoundToolsService } from './fixtures/multi-round-tools.service.js';
import { PromptsService } from './fixtures/prompts.service.js';
import { ResourcesService } from './fixtures/resources.service.js';
import { SchemaToolsService } from './fixtures/schema-tools.service.js';
import { TaskToolsService } from './fixtures/task-tools.service.js';

/** The route of the MCP endpoint: `http://127.0.0.1:3001/mcp`. */
export const MCP_PATH = 'mcp';

/**
 * The app the official conformance suite runs against: the suite's fixtures (fixed names
 * and texts, see README.md), published with the library's decorators only, the way any app
 * would publish its own services. No guards: the suite sends no credentials.
 */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'nestjs-mcp-conformance',
      version: '1.0.0',
      // Sessions for 2025-era clients: the 2025 suites exercise sampling, elicitation,
      // subscriptions and logging/setLevel, which need a server-to-client channel.
      // CONFORMANCE_LEAN_PATH=off serves every request through the SDK's entry instead of
      // the lean path (scripts/conformance.mjs --lean-path off|both), so that the suites
      // judge both settings.
      http: {
        path: MCP_PATH,
        legacySessions: true,
        leanPath: process.env.CONFORMANCE_LEAN_PATH !== 'off',
      },
      // The task fixtures (tasks-* scenarios). The suite polls every 200 ms whatever the
      // server suggests, so suggest the same; ten minutes outlast every scenario.
      tasks: { ttlMs: 600_000, pollIntervalMs: 200 },
    }),
  ],
  providers: [
    ContentToolsService,
    ErrorToolsService,
    InteractionToolsService,
    MultiRoundToolsService,
    PromptsService,
    ResourcesService,
    SchemaToolsService,
    TaskToolsService,
  ],
})
export class ConformanceModule {}
