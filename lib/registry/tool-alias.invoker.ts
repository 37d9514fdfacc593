import type { Logger } from '@nestjs/common';
import type { McpCall } from '../execution/mcp-call.js';
import type { RegisteredTool } from './registered-primitives.js';

/**
 * What `tools/call` finds under a tool's former name: the same tool and invoker, called as
 * its listed name (so guards, the call context and `McpEvents` see the name clients should
 * move to), and one warning per alias the first time a client still uses it.
 */
export function viaToolAlias(
  logger: Logger,
): (tool: RegisteredTool, alias: string) => RegisteredTool {
  return (tool, alias) => {
    let warned = false;
    return {
      ...tool,
      invoke: (call: McpCall) => {
        if (!warned) {
          warned = true;
          logger.warn(
            `A client called the tool "${alias}", a deprecated alias of "${tool.key}": ` +
              `it still works, but tools/list shows only "${tool.key}"; move clients to that ` +
              `name, then drop the alias from @McpTool({ aliases }).`,
          );
        }
        // The protocol layer made the call with the name it was sent; the tool has one name.
        (call as { name: string }).name = tool.key;
        return tool.invoke(call);
      },
    };
  };
}
