/** `nestjs-mcp --help`. Every command and flag, with examples that run against the sample. */
export const CLI_USAGE = `Usage: nestjs-mcp <command> <module-file>[#<ExportName>] [options]

Commands:
  list  <module>          List the module's MCP servers with their tools and schemas
  call  <module> <tool>   Call one tool in-process (same guards, pipes, filters) and print the result
  serve <module>          Serve the module's MCP server over stdio

<module> is the compiled JavaScript file of a Nest module and the name of its export,
for example dist/app.module.js#AppModule (the export name defaults to AppModule).

Options:
  --json              list: the catalog as JSON; call: the raw CallToolResult as JSON
  --args <json>       call: the tool's arguments, a JSON object (default {})
  --header <header>   call, serve: a header of the caller's request, "Name: value"
                      (repeatable); without it, Authorization is read from
                      NESTJS_MCP_AUTHORIZATION
  --server <name>     the MCP server to use when the module has several
  -h, --help          show this help

Exit codes: 0 ok, 1 the tool answered isError (or the app failed), 2 wrong command line.

Examples:
  nestjs-mcp list dist-sample/app.module.js#AppModule
  nestjs-mcp call dist-sample/app.module.js#AppModule search_products --args '{"query":"headphones"}' \\
    --header "Authorization: Bearer admin-token"
  nestjs-mcp serve dist-sample/app.module.js#AppModule --header "Authorization: Bearer reader-token"
`;
