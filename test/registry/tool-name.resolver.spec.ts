import { Controller, Get, Injectable, Patch } from '@nestjs/common';
import { McpConfigurationError } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
// Public through lib/index.ts once the lead exports it; the resolver is unit-tested here.
import {
  checkedAliases,
  McpNaming,
  namedBy,
  namingTargetOf,
} from '../../lib/discovery/tool-name.resolver.js';

@Controller('catalog')
class CatalogController {
  @Get(':id')
  findOne() {}

  @Patch(['products/:id', 'items/:id'])
  updateProduct() {}

  helper() {}
}

@Injectable()
class InventoryService {
  getHTTPStatus() {}
}

describe('McpNaming.normalize', () => {
  it.each([
    ['Catalog.search', 'catalog_search'],
    [' Get  Product! ', 'get_product'],
    ['orders--list__all', 'orders_list_all'],
    ['__x__', 'x'],
    ['Catalog.searchAll', 'catalog_searchall'],
    ['café au lait', 'caf_au_lait'],
  ])('%j → %j', (text, name) => {
    expect(McpNaming.normalize(text)).toBe(name);
  });
});

const snakeCaseOf = (method: string) => McpNaming.snakeCase({ class: InventoryService, method });

describe('the built-in naming functions', () => {
  it('snakeCase: the method, camelCase split, then normalised', () => {
    expect(snakeCaseOf('searchProducts')).toBe('search_products');
    expect(snakeCaseOf('getHTTPStatus')).toBe('get_http_status');
    expect(snakeCaseOf('$findAll')).toBe('find_all');
    expect(snakeCaseOf('list-Orders')).toBe('list_orders');
  });

  it('qualified: the class without its role ending, then the method', () => {
    expect(McpNaming.qualified({ class: CatalogController, method: 'findOne' })).toBe(
      'catalog_find_one',
    );
    expect(McpNaming.qualified({ class: InventoryService, method: 'getHTTPStatus' })).toBe(
      'inventory_get_http_status',
    );
    class Service {}
    expect(McpNaming.qualified({ class: Service, method: 'run' })).toBe('service_run');
  });
});

describe('namingTargetOf', () => {
  it('gives the route of a controller method: its verb and its joined path', () => {
    expect(namingTargetOf(CatalogController, 'findOne')).toEqual({
      class: CatalogController,
      method: 'findOne',
      route: { method: 'GET', path: 'catalog/:id' },
    });
    expect(namingTargetOf(CatalogController, 'updateProduct').route).toEqual({
      method: 'PATCH',
      path: 'catalog/products/:id',
    });
  });

  it('gives no route for a method that is not one', () => {
    expect(namingTargetOf(CatalogController, 'helper')).toEqual({
      class: CatalogController,
      method: 'helper',
    });
    expect(namingTargetOf(InventoryService, 'getHTTPStatus')).not.toHaveProperty('route');
  });
});

describe('namedBy', () => {
  const target = { class: InventoryService, method: 'getHTTPStatus' };

  it('returns what the function names the tool', () => {
    expect(namedBy(({ method }) => `inventory.${method}`, target)).toBe('inventory.getHTTPStatus');
  });

  it.each([['bad name!'], [''], ['x'.repeat(129)], [42]])(
    'fails naming the method when the function returns %j',
    (returned) => {
      const attempt = () => namedBy(() => returned as string, target);
      expect(attempt).toThrow(McpConfigurationError);
      expect(attempt).toThrow(
        `The "naming" option of McpModule returned ${JSON.stringify(returned)} for ` +
          `InventoryService.getHTTPStatus, which is not a tool name`,
      );
    },
  );

  it('fails naming the method when the function throws', () => {
    expect(() =>
      namedBy(() => {
        throw new Error('no route');
      }, target),
    ).toThrow(
      'The "naming" option of McpModule failed for InventoryService.getHTTPStatus: no route.',
    );
  });
});

describe('checkedAliases', () => {
  it('accepts former names with dots, which the name pattern allows', () => {
    expect(checkedAliases(['Catalog.search', 'catalog-find'], 'search', 'A.b')).toEqual([
      'Catalog.search',
      'catalog-find',
    ]);
    expect(checkedAliases([], 'search', 'A.b')).toBeUndefined();
    expect(checkedAliases(undefined, 'search', 'A.b')).toBeUndefined();
  });

  it.each([
    [['Catalog search'], 'The alias "Catalog search" of A.b is not allowed'],
    [['Catalog/search'], 'The alias "Catalog/search" of A.b is not allowed'],
    [[7], 'The alias 7 of A.b is not allowed'],
    ['Catalog.search', 'The "aliases" of A.b must be an array of former names'],
    [['search'], `The alias "search" of A.b is the tool's own name`],
    [['a.b', 'a.b'], 'The alias "a.b" of A.b is given twice'],
  ])('refuses %j', (aliases, message) => {
    expect(() => checkedAliases(aliases, 'search', 'A.b')).toThrow(message);
  });
});
