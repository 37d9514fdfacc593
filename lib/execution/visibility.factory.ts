import { Injectable } from '@nestjs/common';
import { ExternalContextCreator } from '@nestjs/core';
import type { DiscoveredMethod } from '../discovery/discovered-method.interface.js';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { withControllerHost } from './controller-host.js';
import type { McpCall } from './mcp-call.js';

/** Whether a caller may see a tool, prompt or resource in a list. */
export type VisibilityCheck = ((call: McpCall) => Promise<boolean>) & {
  readonly guarded: boolean;
};

/** Listing runs the guards alone: no interceptor, pipe, filter, and never the method. */
const GUARDS_ONLY = { guards: true, interceptors: false, filters: false };

/** A metadata key with no parameters, so the listing pipeline resolves none. */
const NO_PARAMS_METADATA = 'mcp:listing-args';

const ALWAYS_VISIBLE: VisibilityCheck = Object.assign(async () => true, { guarded: false });

/**
 * Derives "may this caller see the tool (prompt, resource)" from the very guards that
 * decide "may this caller call it" (method, class and global ones), so hiding an entry and
 * refusing its call are one rule. Built once per entry at bootstrap; an entry without any
 * guard is visible to everyone without running anything per request.
 */
@Injectable()
export class VisibilityFactory {
  constructor(private readonly externalContextCreator: ExternalContextCreator) {}

  create(method: DiscoveredMethod): VisibilityCheck {
    const runGuards = this.createGuardCheck(method);
    if (!runGuards) return ALWAYS_VISIBLE;
    const check = async (call: McpCall) => {
      try {
        await runGuards(call);
        return true;
      } catch {
        // A guard that throws (Unauthorized, Forbidden, a missing scope) hides the tool.
        return false;
      }
    };
    return Object.assign(check, { guarded: true });
  }

  /**
   * The method's guards alone, as the call runs them: resolves when every guard lets the
   * call through, throws what the call would get otherwise (a guard's exception, or
   * `ForbiddenException` for `false`); `undefined` when the method has no guard.
   */
  createGuardCheck(method: DiscoveredMethod): ((call: McpCall) => Promise<void>) | undefined {
    const instance = method.wrapper.instance as Record<string, Function>;
    const probe = withMetadataOf(instance[method.methodName], () => true);
    let guardCount = 0;
    // The same `create()` Nest uses for the call, seen through an object that also reports
    // how many guards it found: `createGuardsFn` is public, and this keeps to public API.
    const counting = Object.create(
      withControllerHost(this.externalContextCreator, method.wrapper),
      {
        createGuardsFn: {
          value(this: ExternalContextCreator, guards: unknown[], ...rest: unknown[]) {
            guardCount = guards.length;
            return ExternalContextCreator.prototype.createGuardsFn.call(
              this,
              guards as any[],
              ...(rest as [any, any, any]),
            );
          },
        },
      },
    ) as ExternalContextCreator;
    const runGuards = counting.create(
      instance,
      probe,
      method.methodName,
      NO_PARAMS_METADATA,
      undefined,
      undefined,
      method.wrapper.id,
      GUARDS_ONLY,
      MCP_CONTEXT_TYPE,
    );
    if (guardCount === 0) return undefined;
    return async (call) => void (await runGuards(...call.handlerArgs()));
  }
}

/**
 * A stand-in for the method that carries all its metadata, so guards reading
 * `context.getHandler()` with `Reflector` (roles, scopes, `@Public()`) decide as they do
 * for the call, while the method itself never runs for a listing.
 */
function withMetadataOf(method: Function, stand: () => boolean): () => boolean {
  for (const key of Reflect.getMetadataKeys(method)) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), stand);
  }
  return stand;
}
