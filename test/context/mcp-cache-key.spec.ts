import type { ExecutionContext } from '@nestjs/common';
import { mcpCacheKey } from 'nestjs-mcp';
import { describe, expect, it } from 'vitest';

function context(type: string, call?: { name: string; arguments: Record<string, unknown> }) {
  const args = [undefined, undefined, call];
  return {
    getType: () => type,
    getArgs: () => args,
    getArgByIndex: (index: number) => args[index],
    getClass: () => Object,
    getHandler: () => () => undefined,
  } as unknown as ExecutionContext;
}

const key = (name: string, args: Record<string, unknown>) =>
  mcpCacheKey(context('mcp', { name, arguments: args }));

describe('mcpCacheKey', () => {
  it('keys a call by tool and arguments, whatever the key order', () => {
    const a = mcpCacheKey(
      context('mcp', { name: 'rates', arguments: { from: 'EUR', to: { code: 'USD', n: 1 } } }),
    );
    const b = mcpCacheKey(
      context('mcp', { name: 'rates', arguments: { to: { n: 1, code: 'USD' }, from: 'EUR' } }),
    );
    expect(a).toBe('mcp:rates:{"from":"EUR","to":{"code":"USD","n":1}}');
    expect(b).toBe(a);
  });

  it('tells different arguments and tools apart', () => {
    expect(key('rates', { from: 'EUR' })).not.toBe(key('rates', { from: 'GBP' }));
    expect(key('rates', {})).not.toBe(key('fees', {}));
  });

  it('gives no key outside MCP calls, so HTTP routes keep their own caching rules', () => {
    expect(mcpCacheKey(context('http'))).toBeUndefined();
  });
});
