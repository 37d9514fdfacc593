export { bootstrapStdio, type McpStdioServer } from './stdio.bootstrap.js';
export type { StdioBootstrapOptions } from './stdio-bootstrap-options.interface.js';
export { StderrLogger } from './stderr.logger.js';
export {
  CallerRefusedError,
  MCP_AUTHORIZATION_ENV,
  type CallerGuard,
  type CallerRequestSource,
} from '../caller.authenticator.js';
export { ServerSelectionError } from '../server-host.selector.js';
