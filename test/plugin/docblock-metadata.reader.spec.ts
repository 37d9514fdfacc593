import { describe, expect, it } from 'vitest';
import {
  readMethodDescription,
  readMethodDocblock,
  readParameterDescription,
} from '../../lib/discovery/docblock-metadata.reader.js';
import { readPropertyDocblock } from '../../lib/schema/property-docblock.reader.js';

// Classes as the plugin emits them: a static returning the docblocks of the class's own members.
class Base {
  static _MCP_DOCBLOCK_METADATA(): object {
    return {
      methods: {
        find: { description: 'Finds.', params: [{ name: 'id', index: 0, description: 'The id.' }] },
      },
      properties: { name: 'The name.', code: 'The base code.' },
    };
  }
}

class Derived extends Base {
  static override _MCP_DOCBLOCK_METADATA(): object {
    return { properties: { code: 'The derived code.' } };
  }
}

class Undocumented extends Derived {}

describe('the docblock readers', () => {
  it('read a member from the nearest class that documents it', () => {
    expect(readPropertyDocblock(Undocumented, 'code')).toBe('The derived code.');
    expect(readPropertyDocblock(Undocumented, 'name')).toBe('The name.');
    expect(readMethodDescription(Derived, 'find')).toBe('Finds.');
    expect(readParameterDescription(Derived, 'find', 0)).toBe('The id.');
    expect(readParameterDescription(Derived, 'find', 1)).toBeUndefined();
  });

  it('find nothing on a class compiled without the plugin', () => {
    class Plain {
      find() {}
    }
    expect(readMethodDocblock(Plain, 'find')).toBeUndefined();
    expect(readPropertyDocblock(Plain, 'name')).toBeUndefined();
    expect(readPropertyDocblock(Base, 'toString')).toBeUndefined();
  });

  it('ignore a same-named static that is not the plugin’s', () => {
    class Throws {
      static _MCP_DOCBLOCK_METADATA() {
        throw new Error('not ours');
      }
    }
    class Odd {
      static _MCP_DOCBLOCK_METADATA = 'text';
    }
    class Malformed {
      static _MCP_DOCBLOCK_METADATA() {
        return { methods: { find: { description: 3, params: 'x' } }, properties: { name: 4 } };
      }
    }
    expect(readMethodDocblock(Throws, 'find')).toBeUndefined();
    expect(readPropertyDocblock(Odd, 'name')).toBeUndefined();
    expect(readMethodDocblock(Malformed, 'find')).toEqual({ parameters: [] });
    expect(readPropertyDocblock(Malformed, 'name')).toBeUndefined();
  });
});
