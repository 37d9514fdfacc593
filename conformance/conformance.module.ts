import { Module } from '@nestjs/common';
import { McpModule } from 'nestjs-mcp';
import { ContentToolsService } from './fixtures/content-tools.service.js';
import { ErrorToolsService } from './fixtures/error-tools.service.js';

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
      http: { path: MCP_PATH },
    }),
  ],
  providers: [ContentToolsService, ErrorToolsService],
})
export class ConformanceModule {}
