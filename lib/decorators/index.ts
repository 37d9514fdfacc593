export * from './mcp-context.decorator.js';
export * from './mcp-tool.decorator.js';
