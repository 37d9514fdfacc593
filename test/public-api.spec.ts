// What `import ... from 'nestjs-mcp'` (and from its entry points nestjs-mcp/stdio and
// nestjs-mcp/tasks) gives at run time. A change here is a change of the public API: add to a
// list on purpose (and to docs/reference.md), never by accident. nestjs-mcp/testing is pinned
// by test/testing/testing-entry.spec.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../lib/index.js';
import * as tasks from '../lib/tasks/index.js';
import * as stdio from '../lib/transports/stdio/index.js';

const PUBLIC_VALUES = [
  // The module and its services
  'McpModule',
  'MCP_MODULE_OPTIONS',
  'McpServerHost',
  'McpServers',
  'McpNaming',
  'loadMcpPluginMetadata',
  'McpEvents',
  'MCP_TOOL_CALLED_EVENT',
  // Decorators
  'McpTool',
  'McpTools',
  'McpPrompt',
  'McpResource',
  'McpCompletion',
  'McpMethod',
  'McpExtension',
  'McpAppView',
  'McpContext',
  'McpGroup',
  'McpHidden',
  'McpScopes',
  // Guards, interceptors and filters
  'McpScopesGuard',
  'McpExecutionContext',
  'MCP_CONTEXT_TYPE',
  'mcpCacheKey',
  // Results
  'textContent',
  'imageContent',
  'audioContent',
  'resourceLink',
  'embeddedResource',
  'contentList',
  'userMessage',
  'assistantMessage',
  'inputRequired',
  // Errors
  'McpToolError',
  'InvalidArgumentsError',
  'McpConfigurationError',
  'DtoSchemaError',
  'ProtocolError',
  'ProtocolErrorCode',
];

/** nestjs-mcp/stdio: serving an app over stdin and stdout. */
const STDIO_VALUES = [
  'bootstrapStdio',
  'StderrLogger',
  'CallerRefusedError',
  'MCP_AUTHORIZATION_ENV',
  'ServerSelectionError',
];

/** nestjs-mcp/tasks: the stores of MCP tasks. */
const TASKS_VALUES = ['InMemoryTaskStore', 'MCP_TASK_STORE'];

describe('the public API', () => {
  it('exports exactly the documented values', () => {
    expect(Object.keys(api).toSorted()).toEqual(PUBLIC_VALUES.toSorted());
  });

  it('exports exactly the documented values from nestjs-mcp/stdio', () => {
    expect(Object.keys(stdio).toSorted()).toEqual(STDIO_VALUES.toSorted());
  });

  it('exports exactly the documented values from nestjs-mcp/tasks', () => {
    expect(Object.keys(tasks).toSorted()).toEqual(TASKS_VALUES.toSorted());
  });

  it('has nestjs-mcp/stdio and nestjs-mcp/tasks in the exports map, built from their barrels', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(manifest.exports['./stdio']).toEqual({
      types: './dist/transports/stdio/index.d.ts',
      default: './dist/transports/stdio/index.js',
    });
    expect(manifest.exports['./tasks']).toEqual({
      types: './dist/tasks/index.d.ts',
      default: './dist/tasks/index.js',
    });
  });

  it('exports no internal building block', () => {
    for (const internal of [
      'McpExplorer',
      'McpMetadataAccessor',
      'DtoSchemaFactory',
      'DtoArgumentsValidator',
      'ProtocolServerFactory',
      'PrimitiveBinder',
      'McpCoreModule',
    ]) {
      expect(api).not.toHaveProperty(internal);
    }
  });
});
