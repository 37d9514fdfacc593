/** The `StreamableHttpEndpoint` of a registration, or `null` with `http: false`. @internal */
export const MCP_HTTP_ENDPOINT = Symbol('MCP_HTTP_ENDPOINT');
/** The controller class created for a registration. @internal */
export const MCP_HTTP_CONTROLLER = Symbol('MCP_HTTP_CONTROLLER');
