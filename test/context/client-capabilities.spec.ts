import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import {
  clientCapabilitiesOf,
  declaredExtensions,
  declaresExtension,
} from '../../lib/context/client-capabilities.js';

/** A request context with only what the capabilities are read from: its `_meta` envelope. */
const contextWith = (envelope?: Record<string, unknown>) =>
  ({ mcpReq: { envelope } }) as unknown as ServerContext;

const audit: ClientCapabilities = { extensions: { 'com.example/audit': { retentionDays: 30 } } };

describe('clientCapabilitiesOf', () => {
  it('reads a 2026-07-28 request from its _meta envelope', () => {
    const context = contextWith({
      [CLIENT_CAPABILITIES_META_KEY]: audit,
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    });
    expect(CLIENT_CAPABILITIES_META_KEY).toBe('io.modelcontextprotocol/clientCapabilities');
    expect(clientCapabilitiesOf(context, 'modern')).toBe(audit);
  });

  it('does not ask the connection on 2026-07-28: each request says it for itself', () => {
    const legacy = vi.fn(() => ({ extensions: { 'com.example/other': {} } }));
    expect(clientCapabilitiesOf(contextWith({}), 'modern', legacy)).toBeUndefined();
    expect(clientCapabilitiesOf(contextWith(), 'modern', legacy)).toBeUndefined();
    expect(legacy).not.toHaveBeenCalled();
  });

  it('knows nothing when the modern request declares no capabilities', () => {
    expect(clientCapabilitiesOf(contextWith({ other: 1 }), 'modern')).toBeUndefined();
    expect(clientCapabilitiesOf(contextWith(undefined), 'modern')).toBeUndefined();
  });

  it("takes what the connection's initialize declared on a 2025 request, not the envelope", () => {
    const declared: ClientCapabilities = { extensions: { 'com.example/legacy': {} } };
    const legacy = vi.fn(() => declared);
    const context = contextWith({ [CLIENT_CAPABILITIES_META_KEY]: audit });
    expect(clientCapabilitiesOf(context, 'legacy', legacy)).toBe(declared);
    expect(legacy).toHaveBeenCalledTimes(1);
  });

  it('knows nothing on a 2025 request without a connection that remembers initialize', () => {
    const context = contextWith({ [CLIENT_CAPABILITIES_META_KEY]: audit });
    expect(clientCapabilitiesOf(context, 'legacy')).toBeUndefined();
    expect(clientCapabilitiesOf(context, 'legacy', () => undefined)).toBeUndefined();
  });
});

describe('declaredExtensions', () => {
  it('lists the extensions with their settings', () => {
    expect(declaredExtensions(audit)).toEqual({ 'com.example/audit': { retentionDays: 30 } });
  });

  it.each([
    ['no capabilities', undefined],
    ['capabilities without extensions', { sampling: {} }],
    ['extensions set to null', { extensions: null }],
    ['extensions set to a string', { extensions: 'com.example/audit' }],
    ['extensions set to a number', { extensions: 1 }],
    ['extensions set to an array', { extensions: ['com.example/audit'] }],
  ])('gives {} for %s', (_what, capabilities) => {
    expect(declaredExtensions(capabilities as ClientCapabilities | undefined)).toEqual({});
  });
});

describe('declaresExtension', () => {
  it('is true for an extension the client declared, whatever its settings', () => {
    expect(declaresExtension(audit, 'com.example/audit')).toBe(true);
    expect(
      declaresExtension({ extensions: { 'com.example/audit': {} } }, 'com.example/audit'),
    ).toBe(true);
  });

  it('is false for one it did not declare, or when it declared none', () => {
    expect(declaresExtension(audit, 'com.example/search')).toBe(false);
    expect(declaresExtension({}, 'com.example/audit')).toBe(false);
    expect(declaresExtension(undefined, 'com.example/audit')).toBe(false);
    expect(declaresExtension({ extensions: null } as never, 'com.example/audit')).toBe(false);
  });

  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty'])(
    'never takes the inherited name %s for a declared extension',
    (name) => {
      expect(declaresExtension(audit, name)).toBe(false);
      expect(declaresExtension({ extensions: {} }, name)).toBe(false);
    },
  );

  it('finds an extension the client really named __proto__ (an own key from JSON)', () => {
    const capabilities = JSON.parse('{"extensions":{"__proto__":{}}}') as ClientCapabilities;
    expect(declaresExtension(capabilities, '__proto__')).toBe(true);
  });
});
