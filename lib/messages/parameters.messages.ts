/**
 * The messages about how a method takes its arguments: the parameter layout of a tool,
 * prompt or resource method, its type metadata, and arguments DTOs that describe nothing.
 */

/** The kind of entry a message is about, with its name (a resource: its URI or template). */
export interface McpEntryLabel {
  readonly kind: 'tool' | 'prompt' | 'resource';
  readonly name: string;
  readonly where: string;
}

const entryLabel = ({ kind, name, where }: McpEntryLabel): string =>
  `the ${kind} "${name}" (${where})`;

/** A parameter a method cannot have, saying what it is (`what`) and what a method takes. */
const unsupportedParameterMessage = (where: string, index: number, what: string): string =>
  `Parameter ${index} of ${where} ${what}. A tool method takes its arguments as one ` +
  `class-validator DTO parameter (undecorated, or with @Body()/@Query()), plus parameters ` +
  `with @McpContext(), @Req() or a custom parameter decorator.`;

/** An arguments parameter typed `Object`: an interface, a type literal, `any` or a `Record`. */
export const untypedArgumentsMessage = (where: string, index: number): string =>
  `Parameter ${index} of ${where} has no DTO class (its type is Object): an interface or a ` +
  `type literal leaves no runtime type (TypeScript records Object for it, as for any and ` +
  `Record<...>), so no schema can be built from it and no call can be checked. Declare the ` +
  `arguments as a class whose properties have class-validator decorators (@IsString(), ` +
  `@IsInt(), ...), or keep the plain object type and give the raw JSON Schema with ` +
  `@McpTool({ inputSchema }).`;

/** The parameter decorated to take the arguments (`@Body()`, `@Query()`) has no DTO class. */
export const argumentsNotADtoMessage = (where: string, index: number, type: unknown): string =>
  type === Object
    ? untypedArgumentsMessage(where, index)
    : unsupportedParameterMessage(
        where,
        index,
        'takes the arguments but its type is not a DTO class',
      );

/** An undecorated parameter, so the arguments, whose type is not a DTO class. */
export const parameterNotADtoMessage = (where: string, index: number, type: unknown): string => {
  if (type === Object) return untypedArgumentsMessage(where, index);
  const typeName = (type as { name?: string } | undefined)?.name ?? 'unknown';
  return unsupportedParameterMessage(where, index, `has no DTO class (its type is ${typeName})`);
};

/** A Nest parameter decorator (`@Res()`, `@Session()`...) an MCP call has nothing for. */
export const meaninglessParameterDecoratorMessage = (
  where: string,
  index: number,
  decorator: string,
): string =>
  unsupportedParameterMessage(
    where,
    index,
    `has ${decorator}, which means nothing for an MCP call`,
  );

/** `@Body('name')` or `@Query('name')` on a tool method that takes one DTO. */
export const argumentPropertyParameterMessage = (
  where: string,
  index: number,
  property: string,
): string =>
  unsupportedParameterMessage(where, index, `takes one property ("${property}") of the arguments`);

export const secondArgumentsDtoMessage = (
  where: string,
  index: number,
  firstIndex: number,
): string =>
  unsupportedParameterMessage(
    where,
    index,
    `is a second arguments DTO (parameter ${firstIndex} is the first)`,
  );

/**
 * A method with parameters but no `design:paramtypes`: either the compiler emits no
 * metadata, or the method has no decorator of its own (TypeScript emits it only for those).
 */
export const missingParameterTypesMessage = (where: string, decorated: boolean): string =>
  decorated
    ? `${where} has parameters but no type metadata. Enable "emitDecoratorMetadata" (and ` +
      `"experimentalDecorators") in tsconfig.json, as Nest itself requires.`
    : `${where} has parameters but no type metadata: TypeScript records the parameter types ` +
      `of a method only when the method itself has a decorator, and this one has none ` +
      `(@McpTools() on the class does not count). Put @McpTool() on it, and check that ` +
      `"emitDecoratorMetadata" is enabled in tsconfig.json.`;

/** An arguments DTO without class-validator metadata: its schema has no properties. */
export const undecoratedDtoMessage = (dtoName: string, entry: McpEntryLabel): string => {
  const effect = {
    tool:
      'takes no arguments: its input schema has no properties, and every call that passes ' +
      'one is refused',
    prompt:
      'takes no arguments: prompts/list shows none, and every request that passes one is refused',
    resource: 'takes no URI variables: every read of a URI that has one is refused',
  }[entry.kind];
  const alternative = {
    tool:
      ' For a schema a DTO cannot express, type the parameter as a plain object and give ' +
      '@McpTool({ inputSchema }).',
    prompt: '',
    resource:
      ' To take the variables unchecked, type the parameter as a plain object ' +
      '(an interface or Record<string, string>).',
  }[entry.kind];
  return (
    `${dtoName} has no class-validator decorators, so ${entryLabel(entry)} ${effect} ` +
    `("property ... is not allowed; allowed properties: (none)"). TypeScript keeps no trace ` +
    `of a property without a decorator: give each property of ${dtoName} its rules ` +
    `(@IsString(), @IsInt(), @IsOptional(), @ValidateNested(), ...).${alternative} If it ` +
    `takes nothing on purpose, drop the parameter.`
  );
};

/** Prompt arguments typed as a plain object: nothing to list, nothing to check. */
export const untypedPromptArgumentsMessage = (name: string, where: string): string =>
  `${entryLabel({ kind: 'prompt', name, where })} takes its arguments as a plain object: an ` +
  `interface or a type literal leaves no runtime type, so prompts/list shows no arguments ` +
  `and none is checked. Declare them as a class whose properties have class-validator ` +
  `decorators (@IsString(), @IsOptional(), ...).`;
