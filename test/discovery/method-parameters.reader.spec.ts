import {
  Body,
  createParamDecorator,
  Headers,
  Param,
  Query,
  Req,
  Res,
  type ExecutionContext,
} from '@nestjs/common';
import { McpConfigurationError, McpContext, McpTool, type McpCallContext } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import { recordParameterLayout } from '../../lib/discovery/method-parameters.reader.js';
import { MCP_ARGS_METADATA } from '../../lib/mcp.constants.js';
import { ROUTE_ARGS_METADATA } from '../../lib/utils/nest-internals.js';
import { FilterDto, HOW, SearchDto, type SearchShape } from './discovery.fixtures.js';

const CurrentUser = createParamDecorator((_data: unknown, _context: ExecutionContext) => 'ada');

/** The layout recorded for `Class.method`, and what the reader returned. */
function layoutOf(target: Function, method = 'run', plainArguments = false) {
  const result = recordParameterLayout(target as never, method, `${target.name}.${method}`, {
    plainArguments,
  });
  const layout = Reflect.getMetadata(MCP_ARGS_METADATA, target, method) as Record<
    string,
    { index: number; data?: unknown; pipes?: unknown[] }
  >;
  return { ...result, layout };
}

const argumentsSlot = (index: number) => ({ index, data: undefined, pipes: [] });

const failureOf = (target: Function, method = 'run', plainArguments = false): Error => {
  try {
    layoutOf(target, method, plainArguments);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return error as Error;
  }
  throw new Error('expected the parameter layout to be refused');
};

describe('recordParameterLayout', () => {
  it('takes an undecorated DTO parameter as the arguments', () => {
    class Tools {
      @McpTool()
      run(_args: SearchDto) {}
    }
    const { dto, plain, layout } = layoutOf(Tools);
    expect(dto).toBe(SearchDto);
    expect(plain).toBe(false);
    expect(layout).toEqual({ '100:0': argumentsSlot(0) });
  });

  it.each([
    ['@Body()', Body, 3],
    ['@Query()', Query, 4],
  ])(
    'takes a %s parameter as the whole arguments object, keeping its entry',
    (_, decorator, key) => {
      class Tools {
        @McpTool()
        run(@decorator() _args: SearchDto, @McpContext() _call: McpCallContext) {}
      }
      const { dto, layout } = layoutOf(Tools);
      expect(dto).toBe(SearchDto);
      expect(layout).toEqual({
        [`${key}:0`]: { index: 0, data: undefined, pipes: [] },
        '101:1': { index: 1, data: undefined, pipes: [] },
      });
    },
  );

  it('leaves @McpContext(), @Req() and @Headers() parameters to their decorators', () => {
    class Tools {
      @McpTool()
      run(
        @McpContext() _call: McpCallContext,
        @Req() _request: unknown,
        _args: SearchDto,
        @Headers() _headers: Record<string, string>,
      ) {}
    }
    const { dto, layout } = layoutOf(Tools);
    expect(dto).toBe(SearchDto);
    expect(layout).toEqual({
      '101:0': { index: 0, data: undefined, pipes: [] },
      '0:1': { index: 1, data: undefined, pipes: [] },
      '6:3': { index: 3, data: undefined, pipes: [] },
      '100:2': argumentsSlot(2),
    });
  });

  it('keeps a custom parameter decorator as Nest recorded it', () => {
    class Tools {
      @McpTool()
      run(@CurrentUser() _user: string, _args: SearchDto) {}
    }
    const { dto, layout } = layoutOf(Tools);
    expect(dto).toBe(SearchDto);
    const custom = Object.keys(layout).filter((key) => key.includes('__customRouteArgs__'));
    expect(custom).toHaveLength(1);
    expect(layout[custom[0]]).toMatchObject({ index: 0 });
    expect(layout['100:1']).toEqual(argumentsSlot(1));
  });

  it('gives a tool without arguments a slot past its last parameter, so extra arguments are refused', () => {
    class Tools {
      @McpTool()
      none() {}

      @McpTool()
      contextOnly(@McpContext() _call: McpCallContext) {}
    }
    expect(layoutOf(Tools, 'none')).toEqual({
      dto: undefined,
      plain: false,
      layout: { '100:0': argumentsSlot(0) },
    });
    const { dto, layout } = layoutOf(Tools, 'contextOnly');
    expect(dto).toBeUndefined();
    expect(layout).toEqual({
      '101:0': { index: 0, data: undefined, pipes: [] },
      '100:1': argumentsSlot(1),
    });
  });

  it("writes under MCP_ARGS_METADATA only, leaving Nest's route metadata as it was", () => {
    class Tools {
      @McpTool()
      run(@Req() _request: unknown, _args: SearchDto) {}
    }
    const before = structuredClone(Reflect.getMetadata(ROUTE_ARGS_METADATA, Tools, 'run'));
    layoutOf(Tools);
    expect(Reflect.getMetadata(ROUTE_ARGS_METADATA, Tools, 'run')).toEqual(before);
    expect(Object.keys(before)).toEqual(['0:0']);
  });

  it('takes a plain object as the arguments where the caller allows it (inputSchema, prompts)', () => {
    class Tools {
      @McpTool()
      run(_args: Record<string, unknown>, @McpContext() _call: McpCallContext) {}
    }
    const { dto, plain, layout } = layoutOf(Tools, 'run', true);
    expect(dto).toBeUndefined();
    expect(plain).toBe(true);
    expect(layout['100:0']).toEqual(argumentsSlot(0));
  });
});

describe('recordParameterLayout refuses what an MCP call cannot fill', () => {
  it('a second arguments DTO', () => {
    class Tools {
      @McpTool()
      run(_search: SearchDto, _filter: FilterDto) {}
    }
    expect(failureOf(Tools).message).toBe(
      `Parameter 1 of Tools.run is a second arguments DTO (parameter 0 is the first). ${HOW}`,
    );
  });

  it('a DTO next to a @Body() parameter', () => {
    class Tools {
      @McpTool()
      run(@Body() _search: SearchDto, _filter: FilterDto) {}
    }
    expect(failureOf(Tools).message).toContain(
      'Parameter 1 of Tools.run is a second arguments DTO (parameter 0 is the first)',
    );
  });

  it.each([
    ['@Param()', Param],
    ['@Res()', Res],
  ])('the parameter decorator %s, naming it', (name, decorator) => {
    class Tools {
      @McpTool()
      run(_args: SearchDto, @decorator() _value: unknown) {}
    }
    expect(failureOf(Tools).message).toBe(
      `Parameter 1 of Tools.run has ${name}, which means nothing for an MCP call. ${HOW}`,
    );
  });

  it.each([
    ['@Body', Body],
    ['@Query', Query],
  ])("%s('x'): one property of the arguments", (_, decorator) => {
    class Tools {
      @McpTool()
      run(@decorator('query') _query: string) {}
    }
    expect(failureOf(Tools).message).toBe(
      `Parameter 0 of Tools.run takes one property ("query") of the arguments. ${HOW}`,
    );
  });

  it('a parameter that is not a DTO class', () => {
    class Tools {
      @McpTool()
      run(_query: string) {}
    }
    expect(failureOf(Tools).message).toBe(
      `Parameter 0 of Tools.run has no DTO class (its type is String). ${HOW}`,
    );
  });

  const UNTYPED =
    'an interface or a type literal leaves no runtime type (TypeScript records Object for ' +
    'it, as for any and Record<...>), so no schema can be built from it and no call can be ' +
    'checked. Declare the arguments as a class whose properties have class-validator ' +
    'decorators (@IsString(), @IsInt(), ...), or keep the plain object type and give the ' +
    'raw JSON Schema with @McpTool({ inputSchema }).';

  it('an interface or a type literal as the arguments, saying it leaves no runtime type', () => {
    class Tools {
      @McpTool()
      byInterface(_args: SearchShape) {}

      @McpTool()
      byLiteral(_args: { query: string }) {}
    }
    expect(failureOf(Tools, 'byInterface').message).toBe(
      `Parameter 0 of Tools.byInterface has no DTO class (its type is Object): ${UNTYPED}`,
    );
    expect(failureOf(Tools, 'byLiteral').message).toBe(
      `Parameter 0 of Tools.byLiteral has no DTO class (its type is Object): ${UNTYPED}`,
    );
  });

  it('an interface behind @Body()', () => {
    class Tools {
      @McpTool()
      run(@Body() _args: SearchShape) {}
    }
    expect(failureOf(Tools).message).toBe(
      `Parameter 0 of Tools.run has no DTO class (its type is Object): ${UNTYPED}`,
    );
  });

  it('a primitive behind @Body()', () => {
    class Tools {
      @McpTool()
      run(@Body() _args: string) {}
    }
    expect(failureOf(Tools).message).toBe(
      `Parameter 0 of Tools.run takes the arguments but its type is not a DTO class. ${HOW}`,
    );
  });

  it('a decorated method with parameters but no type metadata: emitDecoratorMetadata', () => {
    // Decorated by hand, as a compiler without emitDecoratorMetadata leaves it.
    class Tools {
      run(_args: SearchDto) {}
    }
    const descriptor = Object.getOwnPropertyDescriptor(Tools.prototype, 'run')!;
    McpTool({ description: 'x' })(Tools.prototype, 'run', descriptor);
    expect(Reflect.getMetadata('design:paramtypes', Tools.prototype, 'run')).toBeUndefined();
    expect(failureOf(Tools).message).toBe(
      'Tools.run has parameters but no type metadata. Enable "emitDecoratorMetadata" (and ' +
        '"experimentalDecorators") in tsconfig.json, as Nest itself requires.',
    );
  });

  it('a method without a decorator of its own (an @McpTools() class): put @McpTool() on it', () => {
    class Tools {
      run(_args: SearchDto) {}
    }
    expect(failureOf(Tools).message).toBe(
      'Tools.run has parameters but no type metadata: TypeScript records the parameter types ' +
        'of a method only when the method itself has a decorator, and this one has none ' +
        '(@McpTools() on the class does not count). Put @McpTool() on it, and check that ' +
        '"emitDecoratorMetadata" is enabled in tsconfig.json.',
    );
  });

  it('a method without parameters needs no type metadata', () => {
    class Tools {
      run() {}
    }
    expect(layoutOf(Tools).layout).toEqual({ '100:0': argumentsSlot(0) });
  });
});
