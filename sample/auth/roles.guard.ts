import {
  ForbiddenException,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpExecutionContext } from 'nestjs-mcp';
import type { AuthenticatedRequest, Role } from './authenticated-user.interface.js';
import { Roles } from './roles.decorator.js';

const RANK: Record<Role, number> = { reader: 0, admin: 1 };

/**
 * Lets a call through when the caller's role (set by `BearerTokenGuard`) is at least the one
 * `@Roles()` asks for.
 *
 * The same guard serves the REST controller and the MCP tools: for an MCP call the handler
 * arguments are `[httpRequest, httpResponse, mcpCall]`, so `switchToHttp().getRequest()` is
 * the HTTP request of the MCP endpoint, on which `BearerTokenGuard` has set the user.
 */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const required = this.reflector.getAllAndOverride(Roles, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!required) return true;
    const role = context.switchToHttp().getRequest<AuthenticatedRequest | undefined>()?.user?.role;
    if (role && RANK[role] >= RANK[required]) return true;
    // The message reaches the model as the tool result, so it says what is missing.
    const what = McpExecutionContext.create(context).isMcp() ? 'tool' : 'operation';
    throw new ForbiddenException(
      `This ${what} needs the ${required} role; the caller has ${role ?? 'no role'}`,
    );
  }
}
