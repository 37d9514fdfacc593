import type { Type } from '@nestjs/common';
import { McpConfigurationError } from '../errors/mcp-configuration.error.js';
import { MCP_ARGS_METADATA, McpParamtype } from '../mcp.constants.js';
import {
  argumentPropertyParameterMessage,
  argumentsNotADtoMessage,
  meaninglessParameterDecoratorMessage,
  missingParameterTypesMessage,
  parameterNotADtoMessage,
  secondArgumentsDtoMessage,
} from '../messages/parameters.messages.js';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
} from '../utils/nest-internals.js';
import { isUserClass } from '../utils/built-in-types.js';

interface ParamMetadataEntry {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

export interface ParameterLayout {
  /** The DTO class of the arguments, or `undefined` for a tool that takes none. */
  dto?: Type;
  /**
   * The arguments parameter is a plain object (typed as an interface, a type literal or a
   * record, which `design:paramtypes` records as `Object`); only where the caller allows it
   * (`plainArguments`): a tool with `inputSchema`, a prompt, a resource.
   */
  plain?: boolean;
}

/** The Nest decorators an MCP call has nothing for, by name, for the message. */
export const DECORATOR_NAMES: Partial<Record<number, string>> = {
  [RouteParamtypes.RESPONSE]: '@Res()',
  [RouteParamtypes.NEXT]: '@Next()',
  [RouteParamtypes.PARAM]: '@Param()',
  [RouteParamtypes.SESSION]: '@Session()',
  [RouteParamtypes.FILE]: '@UploadedFile()',
  [RouteParamtypes.FILES]: '@UploadedFiles()',
  [RouteParamtypes.HOST]: '@HostParam()',
  [RouteParamtypes.IP]: '@Ip()',
  [RouteParamtypes.RAW_BODY]: '@RawBody()',
};

/** Whether the method has a decorator of its own (TypeScript emits types only for those). */
const hasOwnDecorator = (target: Type, methodName: string, method: Function): boolean =>
  Reflect.getOwnMetadataKeys(method).length > 0 ||
  Reflect.getOwnMetadataKeys(target.prototype, methodName).length > 0;

const ARGUMENT_PARAMTYPES = new Set<number>([
  McpParamtype.ARGUMENTS,
  RouteParamtypes.BODY,
  RouteParamtypes.QUERY,
]);
const SUPPORTED_PARAMTYPES = new Set<number>([
  ...ARGUMENT_PARAMTYPES,
  McpParamtype.CONTEXT,
  RouteParamtypes.REQUEST,
  RouteParamtypes.HEADERS,
]);

/**
 * The parameter types TypeScript recorded for a method (`design:paramtypes`); a method with
 * parameters but no record fails the bootstrap, saying how to get one.
 */
export function declaredParameterTypes(target: Type, methodName: string, where: string): unknown[] {
  const method = target.prototype[methodName] as Function;
  const paramtypes: unknown[] | undefined = Reflect.getMetadata(
    'design:paramtypes',
    target.prototype,
    methodName,
  );
  if (paramtypes === undefined && method.length > 0) {
    throw new McpConfigurationError(
      missingParameterTypesMessage(where, hasOwnDecorator(target, methodName, method)),
    );
  }
  return paramtypes ?? [];
}

/**
 * Works out, once at bootstrap, which parameter of a tool method receives the arguments
 * and which receive injected values, and records the layout under {@link MCP_ARGS_METADATA}.
 *
 * The arguments parameter is the one decorated with `@Body()`/`@Query()` (whole object),
 * or else the one undecorated parameter whose type is a class. A tool without one still
 * gets an arguments slot past its last parameter, so that a call with unexpected
 * arguments is refused where pipes run, like any other invalid call.
 */
export function recordParameterLayout(
  target: Type,
  methodName: string,
  where: string,
  { plainArguments = false }: { plainArguments?: boolean } = {},
): ParameterLayout {
  const types = declaredParameterTypes(target, methodName, where);
  const decorated: Record<string, ParamMetadataEntry> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};
  const decoratedIndexes = new Set(Object.values(decorated).map((entry) => entry.index));
  const dtoIndex = undecoratedArgumentsIndex(
    types,
    decoratedIndexes,
    decoratedArgumentsIndex(decorated, where),
    where,
    plainArguments,
  );

  const layout = { ...decorated };
  if (dtoIndex === undefined || !decoratedIndexes.has(dtoIndex)) {
    const index = dtoIndex ?? types.length;
    layout[`${McpParamtype.ARGUMENTS}:${index}`] = { index, data: undefined, pipes: [] };
  }
  Reflect.defineMetadata(MCP_ARGS_METADATA, layout, target, methodName);

  const argumentsType = dtoIndex === undefined ? undefined : types[dtoIndex];
  const plain = plainArguments && argumentsType === Object;
  const dto = plain ? undefined : argumentsType;
  if (dtoIndex !== undefined && !plain && !isUserClass(dto)) {
    throw new McpConfigurationError(argumentsNotADtoMessage(where, dtoIndex, dto));
  }
  return { dto: dto as Type | undefined, plain };
}

/**
 * The parameter decorated to take the whole arguments (`@Body()`, `@Query()`), once every
 * parameter decorator is known to mean something for an MCP call.
 */
function decoratedArgumentsIndex(
  decorated: Record<string, ParamMetadataEntry>,
  where: string,
): number | undefined {
  let dtoIndex: number | undefined;
  for (const [key, entry] of Object.entries(decorated)) {
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) continue;
    const paramtype = Number(key.split(':')[0]);
    if (!SUPPORTED_PARAMTYPES.has(paramtype)) {
      throw new McpConfigurationError(
        meaninglessParameterDecoratorMessage(
          where,
          entry.index,
          DECORATOR_NAMES[paramtype] ?? 'a parameter decorator',
        ),
      );
    }
    if (ARGUMENT_PARAMTYPES.has(paramtype)) {
      if (entry.data !== undefined) {
        throw new McpConfigurationError(
          argumentPropertyParameterMessage(where, entry.index, String(entry.data)),
        );
      }
      dtoIndex = entry.index;
    }
  }
  return dtoIndex;
}

/**
 * The parameter that takes the arguments, given the decorated one (if any): an undecorated
 * parameter must be a DTO class, and there may be only one arguments parameter.
 */
function undecoratedArgumentsIndex(
  types: readonly unknown[],
  decoratedIndexes: ReadonlySet<number>,
  decoratedDtoIndex: number | undefined,
  where: string,
  plainArguments: boolean,
): number | undefined {
  let dtoIndex = decoratedDtoIndex;
  for (const [index, type] of types.entries()) {
    if (decoratedIndexes.has(index)) continue;
    // Arguments described by a JSON Schema (`inputSchema`) arrive as a plain object.
    if (plainArguments && type === Object && dtoIndex === undefined) {
      dtoIndex = index;
      continue;
    }
    if (!isUserClass(type)) {
      throw new McpConfigurationError(parameterNotADtoMessage(where, index, type));
    }
    if (dtoIndex !== undefined) {
      throw new McpConfigurationError(secondArgumentsDtoMessage(where, index, dtoIndex));
    }
    dtoIndex = index;
  }
  return dtoIndex;
}
