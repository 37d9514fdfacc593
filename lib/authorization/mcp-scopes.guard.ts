import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { McpScopeRequirement } from '../interfaces/mcp-scope-requirement.interface.js';
import { McpExecutionContext } from '../context/mcp-execution-context.js';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';
import { defaultCallerScopes, toScopeList } from './caller-scopes.js';
import { modelMessage, withModelMessage } from '../content/model-messages.js';

const list = (scopes: readonly string[]) => (scopes.length > 0 ? scopes.join(', ') : 'none');

/**
 * Checks `@McpScopes()` against the caller's scopes. On an MCP call they come from the
 * call (the module's `callerScopes` option); on an HTTP route with the same decorator,
 * from the request through the default reader.
 */
@Injectable()
export class McpScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const requirement = this.reflector.getAllAndOverride<McpScopeRequirement | undefined>(
      MCP_SCOPES_METADATA,
      [context.getHandler(), context.getClass()],
    );
    if (!requirement) return true;
    const mcp = McpExecutionContext.create(context);
    const granted = mcp.isMcp()
      ? mcp.getCall().scopes
      : toScopeList(defaultCallerScopes(context.switchToHttp().getRequest()));
    if ('any' in requirement) {
      if (requirement.any.some((scope) => granted.includes(scope))) return true;
      // Marked with its message id, so that the call's answer is in the caller's language.
      const params = { scopes: list(requirement.any), granted: list(granted) };
      throw withModelMessage(
        new ForbiddenException(modelMessage('missingScope', params)),
        'missingScope',
        params,
      );
    }
    const missing = requirement.all.filter((scope) => !granted.includes(scope));
    if (missing.length === 0) return true;
    const params = { scopes: list(missing), granted: list(granted) };
    throw withModelMessage(
      new ForbiddenException(modelMessage('missingScopes', params)),
      'missingScopes',
      params,
    );
  }
}
