// The `nestjs-mcp/stdio` entry point: an app served over stdin and stdout, for clients that
// start their servers as processes (docs/stdio-and-cli.md), and what its caller check and
// server selection throw. An app served over HTTP only never loads it.
export { bootstrapStdio, type McpStdioServer } from './stdio.bootstrap.js';
export type { StdioBootstrapOptions } from './stdio-bootstrap-options.interface.js';
export { StderrLogger } from './stderr.logger.js';
export {
  CallerRefusedError,
  MCP_AUTHORIZATION_ENV,
  type CallerGuard,
  type CallerRequestSource,
} from '../caller.authenticator.js';
export { ServerSelectionError } from '../server.selector.js';
