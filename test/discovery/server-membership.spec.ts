import { McpConfigurationError } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';
import {
  describeMembership,
  describeScope,
  isPublishedOn,
  resolveMembership,
} from '../../lib/discovery/server-membership.js';

const where = 'CatalogTools.search';

describe('resolveMembership', () => {
  it('is empty without a class group or method options: the servers without a group', () => {
    expect(resolveMembership(undefined, undefined, where)).toEqual({});
    expect(resolveMembership(undefined, {}, where)).toEqual({});
  });

  it("takes the class's @McpGroup() group and version", () => {
    expect(resolveMembership({ group: 'catalog' }, {}, where)).toEqual({ group: 'catalog' });
    expect(resolveMembership({ group: 'catalog', version: '2' }, {}, where)).toEqual({
      group: 'catalog',
      versions: ['2'],
    });
    expect(resolveMembership({ group: 'catalog', version: ['1', '2'] }, undefined, where)).toEqual({
      group: 'catalog',
      versions: ['1', '2'],
    });
  });

  it("lets the method's own group win, leaving the class's version behind", () => {
    expect(
      resolveMembership({ group: 'catalog', version: '2' }, { group: 'orders' }, where),
    ).toEqual({ group: 'orders' });
  });

  it("lets a method that names only a version keep the class's group", () => {
    expect(resolveMembership({ group: 'catalog', version: '1' }, { version: '3' }, where)).toEqual({
      group: 'catalog',
      versions: ['3'],
    });
  });

  it('takes a group and versions given on the method alone', () => {
    expect(resolveMembership(undefined, { group: 'orders', version: ['1', '2'] }, where)).toEqual({
      group: 'orders',
      versions: ['1', '2'],
    });
  });

  it.each([[''], ['  '], [undefined], [3]])(
    'refuses an empty @McpGroup() name (%j), naming the method',
    (group) => {
      const run = () => resolveMembership({ group } as never, {}, where);
      expect(run).toThrow(McpConfigurationError);
      expect(run).toThrow(
        `CatalogTools.search: @McpGroup() needs a group name, such as @McpGroup('catalog') ` +
          `(got ${JSON.stringify(group)}).`,
      );
    },
  );

  it('refuses an empty "group" on the method', () => {
    expect(() => resolveMembership(undefined, { group: '' }, where)).toThrow(
      `CatalogTools.search: "group" must be a non-empty string such as 'catalog' (got "").`,
    );
  });

  it.each([[[]], [''], [['1', '']], [2], [[2]]])('refuses the group version %j', (version) => {
    const run = () => resolveMembership({ group: 'catalog' }, { version } as never, where);
    expect(run).toThrow(McpConfigurationError);
    expect(run).toThrow(
      `CatalogTools.search: a group version must be a non-empty string or a non-empty list ` +
        `of them, such as version: '2' or version: ['1', '2'] (got ${JSON.stringify(version)}).`,
    );
  });

  it('refuses an invalid version on the class too', () => {
    expect(() => resolveMembership({ group: 'catalog', version: [] }, {}, where)).toThrow(
      'a group version must be a non-empty string or a non-empty list of them',
    );
  });

  it('refuses a version without a group, saying where to put one', () => {
    expect(() => resolveMembership(undefined, { version: '2' }, where)).toThrow(
      `CatalogTools.search has a version ("2") but no group: versions belong to a group. ` +
        `Add one: @McpGroup('catalog', { version }) on the class or ` +
        `{ group: 'catalog', version } on the method.`,
    );
  });
});

describe('isPublishedOn', () => {
  const ungrouped = {};
  const catalog = { group: 'catalog' };
  const catalogV2 = { group: 'catalog', versions: ['2'] };
  const catalogV1V2 = { group: 'catalog', versions: ['1', '2'] };

  it('publishes entries without a group on the servers without one, and only there', () => {
    expect(isPublishedOn(undefined, {})).toBe(true);
    expect(isPublishedOn(ungrouped, {})).toBe(true);
    expect(isPublishedOn(ungrouped, { group: 'catalog' })).toBe(false);
    expect(isPublishedOn(catalog, {})).toBe(false);
  });

  it("publishes a group's entries without a version on every server of the group", () => {
    expect(isPublishedOn(catalog, { group: 'catalog' })).toBe(true);
    expect(isPublishedOn(catalog, { group: 'catalog', groupVersion: '7' })).toBe(true);
    expect(isPublishedOn(catalog, { group: 'orders' })).toBe(false);
  });

  it('publishes versioned entries only on the servers of one of their versions', () => {
    expect(isPublishedOn(catalogV2, { group: 'catalog', groupVersion: '2' })).toBe(true);
    expect(isPublishedOn(catalogV2, { group: 'catalog', groupVersion: '1' })).toBe(false);
    expect(isPublishedOn(catalogV2, { group: 'catalog' })).toBe(false);
    expect(isPublishedOn(catalogV1V2, { group: 'catalog', groupVersion: '1' })).toBe(true);
    expect(isPublishedOn(catalogV2, { group: 'orders', groupVersion: '2' })).toBe(false);
  });
});

describe('describeScope and describeMembership', () => {
  it('describes what a server publishes, for log lines', () => {
    expect(describeScope({})).toBe('entries without a group');
    expect(describeScope({ group: 'catalog' })).toBe('group "catalog" (entries without a version)');
    expect(describeScope({ group: 'catalog', groupVersion: '2' })).toBe(
      'group "catalog", version "2"',
    );
  });

  it('describes where an entry belongs', () => {
    expect(describeMembership(undefined)).toBe('without a group');
    expect(describeMembership({ group: 'catalog' })).toBe('in group "catalog"');
    expect(describeMembership({ group: 'catalog', versions: ['2'] })).toBe(
      'in group "catalog", version "2"',
    );
    expect(describeMembership({ group: 'catalog', versions: ['1', '2'] })).toBe(
      'in group "catalog", versions "1", "2"',
    );
  });
});
