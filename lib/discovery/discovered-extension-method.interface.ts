import type { JsonSchema } from '../interfaces/json-schema.interface.js';
import type { DiscoveredMethod } from './discovered-method.interface.js';
import type { ServerMembership } from './server-membership.js';

/** An `@McpMethod()` found at bootstrap: the JSON-RPC method it handles, and its extension. */
export interface DiscoveredExtensionMethod extends DiscoveredMethod {
  /** The JSON-RPC method name (`com.example/audit.query`). */
  readonly method: string;
  /** The extension it belongs to, which a caller must declare. */
  readonly extension: string;
  /** The JSON Schema of the params DTO. */
  readonly paramsSchema: JsonSchema;
}

/** An `@McpExtension()` class found at bootstrap: the extension it declares, and where. */
export interface DiscoveredExtension {
  readonly id: string;
  readonly settings: Readonly<Record<string, unknown>>;
  /** The class, for messages. */
  readonly where: string;
  /** The servers it is advertised on: its class's `@McpGroup()`. */
  readonly membership: ServerMembership;
}
