/**
 * The messages about controller routes published as tools, whose `@Param()`, `@Query()` and
 * `@Body()` parameters become one arguments object.
 */

/** Two parameters of a route give the tool the same argument name. */
export const duplicateRouteArgumentMessage = (
  where: string,
  name: string,
  first: string,
  second: string,
): string =>
  `${where} is published as a tool whose arguments are one flat object made of the route's ` +
  `@Param(), @Query() and @Body(), and the argument "${name}" comes from both ${first} and ` +
  `${second}. Give each name one source: rename one of them, leave the property out of the ` +
  `DTO (OmitType() of @nestjs/mapped-types or @nestjs/swagger), or keep the route off MCP ` +
  `with @McpHidden('why').`;

/** `@Param()`, `@Query()` or `@Body()` of a whole object that is not a DTO class. */
export const untypedRouteObjectMessage = (
  where: string,
  index: number,
  decorator: string,
  typeName: string,
): string =>
  `Parameter ${index} of ${where} takes the whole ${decorator} object, but its type is ` +
  `${typeName}, not a DTO class, so the tool's schema cannot list its properties. Declare it ` +
  `as a class with class-validator decorators, or take each value by name ` +
  `(${decorator.replace('()', "('name')")}).`;

/** A route parameter without a decorator: over HTTP it gets nothing, and so would a tool. */
export const undecoratedRouteParameterMessage = (where: string, index: number): string =>
  `Parameter ${index} of ${where} has no parameter decorator. The route is published as a ` +
  `tool whose arguments are its @Param(), @Query() and @Body() parameters: decorate this one ` +
  `(@Body(), @Query('name'), @McpContext(), @Req()...) or remove it.`;

/** `inputSchema` on a route whose parameters already state the schema. */
export const routeInputSchemaMessage = (where: string): string =>
  `${where} has the "inputSchema" option of @McpTool(), but it is a route whose @Param(), ` +
  `@Query() and @Body() parameters are the tool's arguments and their schema. Drop the ` +
  `option, or take the arguments as one DTO (@Body() dto) to publish a hand-written schema.`;

/** Two DTOs of one route tool whose nested classes share a name but not a schema. */
export const conflictingRouteDefsMessage = (where: string, key: string): string =>
  `${where}: two DTOs of the route's parameters use two different nested classes named ` +
  `"${key}", and the tool's schema lists nested classes by name in "$defs". Rename one class.`;

/** An argument named by the `arguments` option that no route parameter gives. */
export const unknownRouteArgumentOptionMessage = (
  where: string,
  name: string,
  known: readonly string[],
): string =>
  `The "arguments" option of ${where} names "${name}", which no @Param(), @Query() or ` +
  `@Body() of the route gives. Its arguments: ${known.join(', ') || '(none)'}.`;

/** A route parameter an MCP call has nothing for (`@Res()`, `@Session()`, `@UploadedFile()`...). */
export const unsupportedRouteParameterMessage = (
  where: string,
  index: number,
  decorator: string,
): string =>
  `Parameter ${index} of ${where} has ${decorator}, which an MCP call has nothing for. A route ` +
  `published as a tool takes @Param(), @Query(), @Body(), @Headers(), @Req(), @McpContext() ` +
  `and custom parameter decorators. Keep this route off MCP with @McpHidden('why'), or ` +
  `drop the parameter.`;
