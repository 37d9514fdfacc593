export * from './mcp-configuration.error.js';
export * from './mcp-tool.error.js';
