import { Injectable } from '@nestjs/common';
import { McpExtension, McpMethod, McpScopes } from 'nestjs-mcp';
import { RecentCallsQuery } from './dto/recent-calls.query.js';
import { RETAINED_CALLS, ToolAuditLog, type AuditedCall } from './tool-audit.log.js';

/** The identifier of the catalog's audit extension (SEP-2133: a reversed domain, a name). */
export const AUDIT_EXTENSION = 'com.example/audit';

/**
 * An extension of the company's own, beside MCP's (docs/extensions.md): a client that
 * declares `com.example/audit` may ask for the latest tool calls with
 * `com.example/audit.recent`. The server advertises it in `initialize` and `server/discover`
 * with its settings; a client that did not declare it gets -32021.
 */
@McpExtension(AUDIT_EXTENSION, { retainedCalls: RETAINED_CALLS })
@Injectable()
export class CatalogAuditExtension {
  constructor(private readonly audit: ToolAuditLog) {}

  /** The latest executed tool calls, newest first. Needs the catalog.write scope (admins). */
  @McpMethod('com.example/audit.recent')
  @McpScopes('catalog.write')
  recent(query: RecentCallsQuery): { calls: AuditedCall[] } {
    return { calls: this.audit.recent(query.limit ?? 10, query.outcome) };
  }
}
