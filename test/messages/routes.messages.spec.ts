import { describe, expect, it } from 'vitest';
import {
  duplicateRouteArgumentMessage,
  unknownRouteArgumentOptionMessage,
  untypedRouteObjectMessage,
} from '../../lib/messages/routes.messages.js';

describe('the messages of routes published as tools', () => {
  it('names both sources of a duplicate argument', () => {
    expect(
      duplicateRouteArgumentMessage(
        'ProductsController#update',
        'id',
        "@Param('id')",
        'UpdateProductDto.id',
      ),
    ).toContain(
      `the argument "id" comes from both @Param('id') and UpdateProductDto.id. Give each name one source`,
    );
  });

  it("shows how to take one value by name with the route's own decorator", () => {
    expect(untypedRouteObjectMessage('ProductsController#list', 0, '@Query()', 'Object')).toBe(
      'Parameter 0 of ProductsController#list takes the whole @Query() object, but its type is ' +
        "Object, not a DTO class, so the tool's schema cannot list its properties. Declare it as " +
        "a class with class-validator decorators, or take each value by name (@Query('name')).",
    );
  });

  it('lists the arguments a route has, or says it has none', () => {
    expect(unknownRouteArgumentOptionMessage('ProductsController#get', 'sku', ['id', 'shop'])).toBe(
      'The "arguments" option of ProductsController#get names "sku", which no @Param(), ' +
        '@Query() or @Body() of the route gives. Its arguments: id, shop.',
    );
    expect(unknownRouteArgumentOptionMessage('ProductsController#get', 'sku', [])).toMatch(
      /Its arguments: \(none\)\.$/,
    );
  });
});
