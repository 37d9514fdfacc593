import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';

export const {
  ConfigurableModuleClass,
  MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS,
  OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpModuleOptions>({ moduleName: 'Mcp' })
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpOptions')
  .build();
