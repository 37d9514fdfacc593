import type { Annotations, Icon } from '@modelcontextprotocol/server';
import type { McpMembershipOptions } from './mcp-group-options.interface.js';

/** Options of `@McpResource()`. */
export interface McpResourceOptions extends McpMembershipOptions {
  /**
   * The resource's URI (`catalog://categories`), or an RFC 6570 URI template
   * (`catalog://products/{sku}`, `app://orders{?page,limit}`, `files://{+path}`) for a
   * family of resources whose variables reach the method as its DTO parameter.
   */
  uri: string;
  /**
   * The name clients show and refer to.
   * @default the method name in snake_case
   */
  name?: string;
  /** A human-readable title for clients to display. */
  title?: string;
  /** What the resource holds, for the user and the model. */
  description?: string;
  /**
   * The MIME type of the contents. Also the type of contents the method returns as a
   * string (`text/plain` by default) or as bytes (`application/octet-stream` by default).
   */
  mimeType?: string;
  /** The size in bytes, when known (static resources). */
  size?: number;
  /** Audience, priority and last modification, for clients. */
  annotations?: Annotations;
  /** Icons for clients to display (`src` must be `https:` or `data:`). */
  icons?: Icon[];
  /** Extra metadata published with the resource. */
  _meta?: Record<string, unknown>;
  /** Keeps the method off MCP, with the reason why. */
  hidden?: string;
}
