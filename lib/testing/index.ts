// The `nestjs-mcp/testing` entry point: the test client and what its answers are made of, and
// the known gaps between a DTO's schema and class-validator, for tests that hold a DTO to them.
export { McpTestClient, type McpTestClientOptions } from './mcp-test.client.js';
export { McpTestRequest } from './mcp-test.request.js';
export type { McpTestAnswer, McpTestError, McpTestHttpResponse } from './mcp-test-answer.js';
export type { McpTestView } from './mcp-test-view.js';
export type {
  McpQuestion,
  McpQuestionAnswerer,
  McpTestLog,
  McpTestProgress,
} from './mcp-test.hooks.js';
export type { McpTestProtocolVersion } from './mcp-test.connection.js';
export type { ServerContract } from '../contract/mcp-contract.interface.js';
export { KNOWN_SCHEMA_GAPS, type KnownSchemaGap } from '../schema/known-schema-gaps.js';
