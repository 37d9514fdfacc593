export * from './mcp-completion.decorator.js';
export * from './mcp-context.decorator.js';
export { McpGroup } from './mcp-group.decorator.js';
export * from './mcp-hidden.decorator.js';
export * from './mcp-prompt.decorator.js';
export * from './mcp-resource.decorator.js';
export * from './mcp-scopes.decorator.js';
export * from './mcp-tool.decorator.js';
export * from './mcp-tools.decorator.js';
