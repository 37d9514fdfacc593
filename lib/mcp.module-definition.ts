import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';

export const {
  ConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({
  moduleName: 'Mcp',
  // Each forRoot()/forRootAsync() call is a server of its own. Without this, Nest would
  // merge two registrations whose metadata serialises alike (two forRootAsync() calls with
  // the same factory source, say), and one server would silently be missing.
  alwaysTransient: true,
})
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpOptions')
  .build();
