/** `nestjs-mcp --help`. Every command and flag, with examples that run against the sample. */
export const CLI_USAGE = `Usage: nestjs-mcp <command> <module-file>[#<ExportName>] [options]

Commands:
  list  <module>          List the module's MCP servers with their tools and schemas
  call  <module> <tool>   Call one tool in-process (same guards, pipes, filters) and print the result
  serve <module>          Serve the module's MCP server over stdio
  contract <module>       Write (--out) or check (--check) the contract file: what each server
                          publishes (tools, prompts, resources, templates) per caller and locale
  server-json <module>    Write the server.json of a server for the MCP Registry (--url)
  app-types <module>      Write the TypeScript declarations of the app tools (the tools a view
                          renders or calls): arguments, structured result, view, visibility

<module> is the compiled JavaScript file of a Nest module and the name of its export,
for example dist/app.module.js#AppModule (the export name defaults to AppModule).

Options:
  --json              list: the catalog as JSON; call: the raw CallToolResult as JSON
  --hidden            list: also the methods kept off MCP (@McpHidden(), { hidden }) and why
  --args <json>       call: the tool's arguments, a JSON object (default {})
  --header <header>   call, serve: a header of the caller's request, "Name: value"
                      (repeatable); without it, Authorization is read from
                      NESTJS_MCP_AUTHORIZATION
  --server <name>     the MCP server to use when the module has several (contract: all
                      servers by default)
  --out <file>        contract: write the contract to this file (- for stdout);
                      server-json: the file to write (default server.json, - for stdout);
                      app-types: the .d.ts file to write (default: stdout)
  --url <url>         server-json: the public URL of the MCP endpoint, as clients reach it
  --check <file>      contract: compare the module with this file; exit code 1 and the
                      differences when it changed; app-types: exit code 1 when the
                      declarations in this file are not the ones the tools publish now
  --as <caller>       contract: one caller, "Name: value" or label="Name: value"
                      (repeatable; a repeated label adds a header; "anonymous" is the
                      caller without credentials, the default); the file records the
                      label, or for a caller without one its header names and a hash
  --locale <tag>      contract: a locale, sent as Accept-Language (repeatable; "default"
                      is the server's own texts, the default); list, call, serve: the
                      language of a server with i18n (default: LC_ALL, LC_MESSAGES or LANG)
  -h, --help          show this help

Exit codes: 0 ok, 1 the tool answered isError, the contract changed (or the app failed),
2 wrong command line (or, for server-json, a server without a discovery name).

Examples:
  nestjs-mcp list dist-sample/app.module.js#AppModule
  nestjs-mcp list dist-sample/app.module.js#AppModule --hidden
  nestjs-mcp call dist-sample/app.module.js#AppModule search_products --args '{"query":"headphones"}' \\
    --header "Authorization: Bearer admin-token"
  nestjs-mcp serve dist-sample/app.module.js#AppModule --header "Authorization: Bearer reader-token"
  nestjs-mcp contract dist-sample/app.module.js#AppModule --out mcp-contract.json \\
    --as reader="Authorization: Bearer reader-token" --as admin="Authorization: Bearer admin-token"
  nestjs-mcp contract dist-sample/app.module.js#AppModule --check mcp-contract.json \\
    --as reader="Authorization: Bearer reader-token" --as admin="Authorization: Bearer admin-token"
  nestjs-mcp server-json dist-sample/app.module.js#AppModule --url https://mcp.example.com/mcp
  nestjs-mcp app-types dist-sample/app.module.js#AppModule --out sample/views/app-tools.d.ts
`;
