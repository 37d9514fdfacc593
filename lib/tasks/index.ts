// The `nestjs-mcp/tasks` entry point: for an app that configures the store of MCP tasks or
// implements its own (docs/tasks.md#the-store). What a tool author needs (the `tasks`
// options, a tool's `task` option, `McpTaskContext`) is exported by `nestjs-mcp`.
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from './in-memory-task.store.js';
export { MCP_TASK_STORE } from '../mcp.constants.js';
export type {
  McpTask,
  McpTaskError,
  McpTaskEvent,
  McpTaskPage,
  McpTaskStatus,
  McpTaskStore,
  NewMcpTask,
} from '../interfaces/mcp-task-store.interface.js';
