export * from './mcp-call-context.interface.js';
export * from './mcp-completion.interface.js';
export * from './mcp-group-options.interface.js';
export * from './mcp-module-options.interface.js';
export * from './mcp-prompt-options.interface.js';
export * from './mcp-resource-options.interface.js';
export * from './mcp-tool-options.interface.js';
