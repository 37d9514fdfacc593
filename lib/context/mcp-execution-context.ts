import type { ArgumentsHost, ContextType, ExecutionContext, Type } from '@nestjs/common';
import type {
  McpCallContext,
  McpPhase,
  McpPrimitiveKind,
} from '../interfaces/mcp-call-context.interface.js';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { ExecutionContextHost } from '../utils/nest-internals.js';

/** `ExecutionContext#getType()` values, MCP included: `context.getType<McpContextType>()`. */
export type McpContextType = typeof MCP_CONTEXT_TYPE | ContextType;

/**
 * Typed access to an MCP call from a guard, interceptor or exception filter, in the
 * manner of `GqlExecutionContext`.
 *
 * @example
 * ```ts
 * canActivate(context: ExecutionContext) {
 *   if (context.getType<McpContextType>() === 'mcp') {
 *     const mcp = McpExecutionContext.create(context);
 *     return mcp.getName() !== 'delete_product' || isAdmin(mcp.getRequest());
 *   }
 *   return true;
 * }
 * ```
 * @publicApi
 */
export class McpExecutionContext extends ExecutionContextHost {
  static create(context: ExecutionContext | ArgumentsHost): McpExecutionContext {
    const executionContext = context as Partial<ExecutionContext>;
    const mcpContext = new McpExecutionContext(
      context.getArgs(),
      executionContext.getClass?.() as Type | undefined,
      executionContext.getHandler?.(),
    );
    mcpContext.setType(context.getType());
    return mcpContext;
  }

  /** Whether the context belongs to an MCP call (and the getters below apply). */
  isMcp(): boolean {
    return this.getType<McpContextType>() === MCP_CONTEXT_TYPE;
  }

  /** The call: tool name, raw arguments, era, abort signal, HTTP request. */
  getCall(): McpCallContext {
    return this.getArgByIndex<McpCallContext>(2);
  }

  /** `'list'` when guards decide whether the caller sees the tool, `'call'` before it runs. */
  getPhase(): McpPhase {
    return this.getCall().phase;
  }

  /** Shorthand for `getPhase() === 'list'`. */
  isListing(): boolean {
    return this.getPhase() === 'list';
  }

  /** What is called: `'tool'`, `'prompt'` or `'resource'`. */
  getKind(): McpPrimitiveKind {
    return this.getCall().kind;
  }

  /** The name of the tool or prompt, or the URI of the resource. */
  getName(): string {
    return this.getCall().name;
  }

  /** The arguments as the client sent them (validation runs later, where pipes run). */
  getArguments(): Readonly<Record<string, unknown>> {
    return this.getCall().arguments;
  }

  /** The platform's HTTP request, or `undefined` where the call did not come over HTTP. */
  getRequest<T = any>(): T {
    return this.getArgByIndex<T>(0);
  }
}
