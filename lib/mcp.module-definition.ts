import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';

// McpModule types forRoot()/forRootAsync() with its own interfaces, not the builder's
// OPTIONS_TYPE (`McpModuleOptions & Partial<{}>`, which TypeScript prints in every error).
export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: MCP_MODULE_OPTIONS } =
  new ConfigurableModuleBuilder<McpModuleOptions>({
    moduleName: 'Mcp',
    // Each forRoot()/forRootAsync() call is a server of its own. Nest 12 tells dynamic
    // modules apart by reference by default, but with `moduleIdGeneratorAlgorithm:
    // 'deep-hash'` it merges registrations whose metadata serialises alike (two
    // forRootAsync() calls built by one helper, say), and a server would silently be missing.
    alwaysTransient: true,
  })
    .setClassMethodName('forRoot')
    .setFactoryMethodName('createMcpOptions')
    .build();
