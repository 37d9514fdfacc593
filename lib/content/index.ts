export * from './mcp-content.js';
