import { Injectable, Module, type Type } from '@nestjs/common';
import { McpModule, McpTool, type McpModuleOptions } from 'nestjs-mcp';
import { ADD_NUMBERS_DESCRIPTION, AddNumbersDto, addNumbersText } from './add-numbers.js';
import { createToolProviders } from './generated-tools.js';

/** The tool of ours (c): a method of a plain Nest service, its DTO validated per call. */
@Injectable()
export class AddNumbersService {
  @McpTool({ description: ADD_NUMBERS_DESCRIPTION, annotations: { readOnlyHint: true } })
  addNumbers(input: AddNumbersDto): string {
    return addNumbersText(input);
  }
}

export interface McpAppOptions {
  /** Tools in all, `add_numbers` included. @default 1 */
  tools?: number;
  /** Whether to import `McpModule` (false: the same providers, no MCP). @default true */
  mcp?: boolean;
  /** `false`: the module's `telemetry: false` (the telemetry experiment's `http-off`). @default true */
  telemetry?: boolean;
  /** The module's `http.leanPath` (unset: the library's default). */
  leanPath?: boolean;
  /** The module's `i18n` (the localization bench (j), apps/i18n.setup.ts). */
  i18n?: McpModuleOptions['i18n'];
}

/** Ours (c, d, e, f): an app whose services publish tools through `McpModule.forRoot()`. */
export function createMcpAppModule({
  tools = 1,
  mcp = true,
  telemetry = true,
  leanPath,
  i18n,
}: McpAppOptions = {}): Type {
  @Module({
    // One page holds every tool, so list(1,000) measures one whole list, as the raw SDK
    // (which does not paginate) answers it.
    imports: mcp
      ? [
          McpModule.forRoot({
            name: 'bench',
            version: '1.0.0',
            pageSize: 1000,
            ...(!telemetry && { telemetry: false as const }),
            ...(leanPath !== undefined && { http: { leanPath } }),
            ...(i18n && { i18n }),
          }),
        ]
      : [],
    providers: [AddNumbersService, ...createToolProviders(tools - 1)],
  })
  class BenchMcpAppModule {}
  return BenchMcpAppModule;
}
