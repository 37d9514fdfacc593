import {
  BadRequestException,
  Body,
  Controller,
  HttpCode,
  Module,
  Post,
  type Type,
} from '@nestjs/common';
import { ADD_NUMBERS_TOOL, addNumbersText, type AddNumbersArgs } from './add-numbers.js';

const isWholeNumber = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 1000;

/** The same checks the DTO and the JSON Schema state, written by hand. */
function checkArguments(args: unknown): AddNumbersArgs {
  const { a, b, label, ...rest } = (args ?? {}) as Record<string, unknown>;
  if (
    !isWholeNumber(a) ||
    !isWholeNumber(b) ||
    typeof label !== 'string' ||
    label.length < 1 ||
    label.length > 64 ||
    Object.keys(rest).length > 0
  ) {
    throw new BadRequestException('invalid arguments');
  }
  return { a, b, label };
}

interface JsonRpcCall {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown };
}

/**
 * Ceiling (a): a plain Nest POST route that takes the same JSON-RPC body and answers the
 * same JSON-RPC result as the 2026-07-28 MCP endpoints, with no MCP machinery at all.
 */
@Controller('mcp')
class CeilingController {
  @Post()
  @HttpCode(200)
  handle(@Body() body: JsonRpcCall) {
    if (body?.jsonrpc !== '2.0' || body.method !== 'tools/call') {
      throw new BadRequestException('not a tools/call request');
    }
    if (body.params?.name !== ADD_NUMBERS_TOOL) throw new BadRequestException('unknown tool');
    const text = addNumbersText(checkArguments(body.params.arguments));
    return {
      result: {
        content: [{ type: 'text', text }],
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } },
      },
      jsonrpc: '2.0',
      id: body.id,
    };
  }
}

@Module({ controllers: [CeilingController] })
class CeilingAppModule {}

export const ceilingAppModule: Type = CeilingAppModule;
