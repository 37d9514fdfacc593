export * from './dto-schema.error.js';
export * from './mcp-configuration.error.js';
export * from './mcp-tool.error.js';
export * from './invalid-arguments.error.js';
