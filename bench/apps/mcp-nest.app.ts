import { Module, type INestApplication, type Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import {
  ADD_NUMBERS_DESCRIPTION,
  ADD_NUMBERS_JSON_SCHEMA,
  ADD_NUMBERS_TOOL,
  addNumbersText,
  type AddNumbersArgs,
} from './add-numbers.js';

// The peer (h): `@rekog/mcp-nest` 2.0.5 as its README sets it up. The strategy is a Nest
// microservice transport; its `StreamableHttpTransport` mounts POST /mcp on the HTTP
// adapter and, by default, serves both eras: a 2026-07-28 POST goes to the SDK's
// `createMcpHandler` (through `toNodeHandler`, inside an AsyncLocalStorage), a 2025 one to
// a per-request `NodeStreamableHTTPServerTransport` in stateless mode, which answers JSON
// (`enableJsonResponse` follows `!statefulMode`). A tool is a `@MessagePattern` handler run
// through Nest's RPC pipeline.

/**
 * The tool's `parameters`: the raw JSON Schema the raw SDK registers (MCP-Nest accepts one
 * besides Zod, advertises it verbatim and checks it with the SDK's `fromJsonSchema`, i.e.
 * the same compiled Ajv check as the raw SDK), so that all variants list the same schema.
 */
const parameters = ADD_NUMBERS_JSON_SCHEMA as unknown as Record<string, unknown>;

const toolResult = (args: AddNumbersArgs) => ({
  content: [{ type: 'text' as const, text: addNumbersText(args) }],
});

@McpController()
class AddNumbersController {
  @Tool({
    name: ADD_NUMBERS_TOOL,
    description: ADD_NUMBERS_DESCRIPTION,
    parameters,
    annotations: { readOnlyHint: true },
  })
  addNumbers(@Payload() args: AddNumbersArgs) {
    return toolResult(args);
  }
}

const TOOLS_PER_CONTROLLER = 10;

/**
 * `count` more tools (`tool_0000`, ...) on controllers of ten methods, as the generated
 * tools of ours (apps/generated-tools.ts) with the same names, descriptions and schema:
 * the decorators `@Tool()`, `@Payload()` and `@McpController()` applied by calls.
 */
function createToolControllers(count: number): Type[] {
  const controllers: Type[] = [];
  for (let first = 0; first < count; first += TOOLS_PER_CONTROLLER) {
    const controller = class {};
    Object.defineProperty(controller, 'name', { value: `GeneratedMcpNestTools${first}` });
    const prototype = controller.prototype as Record<string, unknown>;
    for (let index = first; index < Math.min(count, first + TOOLS_PER_CONTROLLER); index += 1) {
      const id = String(index).padStart(4, '0');
      const key = `tool${id}`;
      // A function of its own per tool: the decorators store their metadata on it.
      Object.defineProperty(prototype, key, {
        value: function (args: AddNumbersArgs) {
          return toolResult(args);
        },
        writable: true,
        configurable: true,
      });
      Reflect.defineMetadata('design:paramtypes', [Object], prototype, key);
      Payload()(prototype, key, 0);
      Tool({
        name: `tool_${id}`,
        description: `Generated tool ${id}: adds two whole numbers between 0 and 1000, with a label.`,
        parameters,
        annotations: { readOnlyHint: true },
      })(prototype, key, Object.getOwnPropertyDescriptor(prototype, key)!);
    }
    McpController()(controller);
    controllers.push(controller as Type);
  }
  return controllers;
}

export interface McpNestApp {
  module: Type;
  /** Connects the strategy and mounts its routes: after `NestFactory.create`, before `listen`. */
  beforeListen: (app: INestApplication) => Promise<void>;
}

/** An app serving `add_numbers` (and `tools - 1` generated tools) through MCP-Nest. */
export function createMcpNestApp(tools = 1): McpNestApp {
  const strategy = new McpStrategy({
    name: 'bench',
    version: '1.0.0',
    transports: [new StreamableHttpTransport()],
  });

  @Module({ controllers: [AddNumbersController, ...createToolControllers(tools - 1)] })
  class McpNestAppModule {}

  return {
    module: McpNestAppModule,
    // README, Quick Start: the adapter, the microservice, then `startAllMicroservices()`
    // before `listen()` so that the MCP routes are mounted first.
    async beforeListen(app) {
      strategy.setHttpAdapter(app.getHttpAdapter());
      app.connectMicroservice({ strategy });
      await app.startAllMicroservices();
    },
  };
}
