// What `import ... from 'nestjs-mcp'` gives at run time. A change here is a change of the
// public API: add to the list on purpose (and to the README's reference), never by accident.
import { describe, expect, it } from 'vitest';
import * as api from '../lib/index.js';

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
  // Schema
  'KNOWN_SCHEMA_GAPS',
  // stdio
  'bootstrapStdio',
  'StderrLogger',
  'CallerRefusedError',
  'ServerSelectionError',
  'MCP_AUTHORIZATION_ENV',
  // Tasks
  'InMemoryTaskStore',
  'MCP_TASK_STORE',
  'ProtocolError',
  'ProtocolErrorCode',
];

describe('the public API', () => {
  it('exports exactly the documented values', () => {
    expect(Object.keys(api).toSorted()).toEqual(PUBLIC_VALUES.toSorted());
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
