import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Controller, Module, Post, Req, Res, type Type } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toLeanNodeHandler } from '../experiments/lean-node-bridge.js';
import {
  ADD_NUMBERS_DESCRIPTION,
  ADD_NUMBERS_JSON_SCHEMA,
  ADD_NUMBERS_TOOL,
  addNumbersText,
  type AddNumbersArgs,
} from './add-numbers.js';

// Built once, as a careful SDK user would: the validator is compiled here, not per request.
const inputSchema = fromJsonSchema<AddNumbersArgs>(ADD_NUMBERS_JSON_SCHEMA);

/**
 * The raw SDK v2 as its docs show it for HTTP: `createMcpHandler` with a fresh
 * `McpServer` per request, the same tool registered with an equivalent JSON Schema.
 */
const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    server.registerTool(
      ADD_NUMBERS_TOOL,
      {
        description: ADD_NUMBERS_DESCRIPTION,
        inputSchema,
        annotations: { readOnlyHint: true },
      },
      (args) => ({ content: [{ type: 'text', text: addNumbersText(args) }] }),
    );
    return server;
  },
  { legacy: 'stateless' },
);
type NodeHandler = (
  request: IncomingMessage & { body?: unknown },
  response: ServerResponse,
  parsedBody: unknown,
) => Promise<void>;

export type RawSdkBridge = 'sdk' | 'lean' | 'sdk-als';

/** The request in an AsyncLocalStorage around the handler, as nestjs-mcp's endpoint does. */
function withAsyncLocalStorage(nodeHandler: NodeHandler): NodeHandler {
  const storage = new AsyncLocalStorage<{ request: unknown; response: unknown }>();
  return (request, response, parsedBody) =>
    storage.run({ request, response }, () => nodeHandler(request, response, parsedBody));
}

/**
 * Baseline (b): the SDK handler mounted as a route of a Nest/Express app, through the
 * SDK's own Node adapter (`toNodeHandler`). The experiments (bench/experiment.ts, not
 * measured variants) swap in the leaner bridge of bench/experiments/lean-node-bridge.ts
 * (`lean`) or add an AsyncLocalStorage around the handler (`sdk-als`).
 */
export function createRawSdkAppModule(bridge: RawSdkBridge = 'sdk'): Type {
  const nodeHandler: NodeHandler =
    bridge === 'lean'
      ? toLeanNodeHandler(handler)
      : bridge === 'sdk-als'
        ? withAsyncLocalStorage(toNodeHandler(handler))
        : toNodeHandler(handler);

  @Controller('mcp')
  class RawSdkController {
    @Post()
    handle(
      @Req() request: IncomingMessage & { body?: unknown },
      @Res() response: ServerResponse,
    ): Promise<void> {
      return nodeHandler(request, response, request.body);
    }
  }

  @Module({ controllers: [RawSdkController] })
  class RawSdkAppModule {}
  return RawSdkAppModule;
}

export const closeRawSdk = (): Promise<void> => handler.close();
