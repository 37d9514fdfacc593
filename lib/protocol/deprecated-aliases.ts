import { Logger } from '@nestjs/common';
import { deprecatedAliasMessage } from '../messages/serving.messages.js';

/**
 * The warnings of one server's deprecated tool aliases (`@McpTool({ aliases })`): a call by
 * an alias runs the tool under its listed name (guards, the call context and `McpEvents`
 * see the name clients should move to), and is logged once per alias, the first time.
 */
export class DeprecatedAliases {
  private readonly logger = new Logger(DeprecatedAliases.name);
  private readonly warned = new Set<string>();

  /** The listed name of a tool called as `called`, warning once when that was an alias. */
  resolve(called: string, listed: string): string {
    if (called !== listed && !this.warned.has(called)) {
      this.warned.add(called);
      this.logger.warn(deprecatedAliasMessage(called, listed));
    }
    return listed;
  }
}
