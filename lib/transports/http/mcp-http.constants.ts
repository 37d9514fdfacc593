/** The `StreamableHttpEndpoint` of a registration, or `null` with `http: false`. */
export const MCP_HTTP_ENDPOINT = Symbol('MCP_HTTP_ENDPOINT');
/** The controller class created for a registration. */
export const MCP_HTTP_CONTROLLER = Symbol('MCP_HTTP_CONTROLLER');
/** The registration's OAuth resource server (`auth`), or `null` without `auth`. */
export const MCP_RESOURCE_SERVER = Symbol('MCP_RESOURCE_SERVER');
