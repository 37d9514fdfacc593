export * from './mcp-context.decorator.js';
export * from './mcp-hidden.decorator.js';
export * from './mcp-scopes.decorator.js';
export * from './mcp-tool.decorator.js';
export * from './mcp-tools.decorator.js';
