import type { ServerContext } from '@modelcontextprotocol/server';
import { clientCapabilitiesOf, declaresExtension } from '../../context/client-capabilities.js';
import { extensionRequired } from '../../errors/extension-required.error.js';
import type { RegisteredExtensionMethod } from '../../registry/registered-primitives.js';
import type { CatalogServing, Handlers, HandledServer } from './catalog-serving.interface.js';
import { checkedArguments } from './tool.handlers.js';

/**
 * The `params` of an extension method as the SDK's custom-method registration takes them
 * (a Standard Schema): taken as they come, since the method's DTO checks them inside the
 * pipeline, after its guards (a caller that may not call it learns nothing of them).
 */
const ANY_PARAMS = {
  params: {
    '~standard': {
      version: 1 as const,
      vendor: 'nestjs-mcp',
      types: undefined as unknown as { input: unknown; output: Record<string, unknown> },
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
    },
  },
};

/**
 * The JSON-RPC methods the app's extensions add (`@McpMethod()`), one handler each: the
 * SDK answers a method no server handles with `-32601` before any of them, and the
 * handler refuses a caller that did not declare the method's extension with `-32021`
 * (2026-07-28: in this request's `_meta`; 2025: in `initialize` on its connection).
 */
export const extensionMethodHandlers: Handlers = (serving, target) => {
  for (const method of serving.catalog.methods.values()) {
    target.server.setRequestHandler(method.key, ANY_PARAMS, (params, ctx) =>
      callMethod(serving, target, method, params, ctx),
    );
  }
};

function callMethod(
  serving: CatalogServing,
  target: HandledServer,
  method: RegisteredExtensionMethod,
  params: Record<string, unknown>,
  ctx: ServerContext,
) {
  const scope = target.scopeOf(ctx);
  const capabilities = clientCapabilitiesOf(ctx, target.era, scope.legacyClientCapabilities);
  if (!declaresExtension(capabilities, method.extension)) {
    throw extensionRequired(`The method "${method.key}"`, method.extension, target.era);
  }
  // `_meta` is the protocol's (the envelope, a progress token), not the method's.
  const { _meta, ...args } = params;
  return method.invoke(serving.call('method', method.key, checkedArguments(args), scope));
}
