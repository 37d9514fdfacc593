/**
 * The messages about the JSON Schemas of a tool: its arguments (a DTO, the `arguments`
 * option, a hand-written `inputSchema`) and its declared `output`.
 */

/** A name in the `arguments` option that is no property of the DTO. */
export const unknownArgumentOptionMessage = (
  name: string,
  dtoName: string,
  known: readonly string[],
): string =>
  `The "arguments" option names "${name}", which is not a property of ${dtoName}. ` +
  `Its properties: ${known.join(', ') || '(none)'}.`;

export const inputSchemaNotAnObjectMessage = (where: string): string =>
  `${where}: the "inputSchema" of a tool must have "type": "object" at its root (MCP).`;

export const invalidOutputOptionMessage = (): string =>
  'The "output" option of @McpTool() takes a class (ProductDto, String, Number, ' +
  'Boolean, Date) or a list of one class ([ProductDto]).';

/** A declared output class without class-validator metadata (`className` empty: anonymous). */
export const undecoratedOutputMessage = (className: string): string =>
  `${className || 'The output class'} has no class-validator decorators, so no output ` +
  'schema can be built from it. The same decorators describe arguments and ' +
  'outputs: decorate its properties (@IsString(), @IsInt(), @ValidateNested(), ...).';
