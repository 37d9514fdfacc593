import { describe, expect, it } from 'vitest';
import type {
  DiscoveredExtension,
  DiscoveredExtensionMethod,
} from '../../lib/discovery/discovered-extension-method.interface.js';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import { conflictingExtensionSettingsMessage } from '../../lib/messages/extensions.messages.js';
import { serverExtensions } from '../../lib/registry/server-extensions.js';

const OPTION = 'the "extensions" option';

const declaredBy = (
  where: string,
  id: string,
  settings: Record<string, unknown> = {},
): DiscoveredExtension =>
  ({ id, settings, where, membership: {} }) as unknown as DiscoveredExtension;

const methodOf = (method: string, extension: string): DiscoveredExtensionMethod =>
  ({ method, extension, where: `Audit.${method}` }) as unknown as DiscoveredExtensionMethod;

const asObject = (extensions: ReadonlyMap<string, unknown>) => Object.fromEntries(extensions);

describe('serverExtensions', () => {
  it('advertises nothing when the app declares nothing', () => {
    expect(serverExtensions(undefined, [], []).size).toBe(0);
    expect(serverExtensions({}, [], []).size).toBe(0);
  });

  it('merges the option, the @McpExtension() classes and the extensions of the methods', () => {
    const extensions = serverExtensions(
      { 'com.example/audit': { retentionDays: 30 } },
      [declaredBy('@McpExtension() of SearchExtension', 'com.example/search', { fuzzy: true })],
      [methodOf('com.example/metrics.read', 'com.example/metrics')],
    );
    expect(asObject(extensions)).toEqual({
      'com.example/audit': { retentionDays: 30 },
      'com.example/search': { fuzzy: true },
      'com.example/metrics': {},
    });
  });

  it('advertises a method whose extension nothing declares, with {} as its settings', () => {
    const extensions = serverExtensions(
      undefined,
      [],
      [
        methodOf('com.example/audit.recent', 'com.example/audit'),
        methodOf('com.example/audit.query', 'com.example/audit'),
      ],
    );
    expect(asObject(extensions)).toEqual({ 'com.example/audit': {} });
  });

  it('keeps the declared settings of the extension a method belongs to', () => {
    const fromOption = serverExtensions(
      { 'com.example/audit': { retentionDays: 30 } },
      [],
      [methodOf('com.example/audit.recent', 'com.example/audit')],
    );
    expect(fromOption.get('com.example/audit')).toEqual({ retentionDays: 30 });

    const fromClass = serverExtensions(
      undefined,
      [declaredBy('@McpExtension() of AuditExtension', 'com.example/audit', { retentionDays: 7 })],
      [methodOf('com.example/audit.recent', 'com.example/audit')],
    );
    expect(fromClass.get('com.example/audit')).toEqual({ retentionDays: 7 });
  });

  it('accepts one extension declared in several places with the same settings', () => {
    const extensions = serverExtensions(
      { 'com.example/audit': { retentionDays: 30, scopes: ['audit.read'] } },
      [
        declaredBy('@McpExtension() of AuditExtension', 'com.example/audit', {
          retentionDays: 30,
          scopes: ['audit.read'],
        }),
        declaredBy('@McpExtension() of AuditAdmin', 'com.example/audit', {
          retentionDays: 30,
          scopes: ['audit.read'],
        }),
      ],
      [],
    );
    expect(asObject(extensions)).toEqual({
      'com.example/audit': { retentionDays: 30, scopes: ['audit.read'] },
    });
  });

  it('compares settings by value, whatever the order of their keys', () => {
    const extensions = serverExtensions(
      { 'com.example/audit': { retentionDays: 30, region: 'eu' } },
      [
        declaredBy('@McpExtension() of AuditExtension', 'com.example/audit', {
          region: 'eu',
          retentionDays: 30,
        }),
      ],
      [],
    );
    expect(asObject(extensions)).toEqual({
      'com.example/audit': { retentionDays: 30, region: 'eu' },
    });
  });

  it('fails the bootstrap when the option and a class give one extension other settings, naming both', () => {
    const where = '@McpExtension() of AuditExtension';
    let thrown: unknown;
    try {
      serverExtensions(
        { 'com.example/audit': { retentionDays: 30 } },
        [declaredBy(where, 'com.example/audit', { retentionDays: 7 })],
        [],
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpConfigurationError);
    expect((thrown as Error).message).toBe(
      conflictingExtensionSettingsMessage('com.example/audit', [OPTION, where]),
    );
    expect((thrown as Error).message).toContain(`${OPTION} and ${where}`);
  });

  it('fails the bootstrap when two classes give one extension other settings, naming both', () => {
    const first = '@McpExtension() of AuditExtension';
    const second = '@McpExtension() of AuditAdmin';
    expect(() =>
      serverExtensions(
        undefined,
        [
          declaredBy(first, 'com.example/audit', { retentionDays: 30 }),
          declaredBy(second, 'com.example/audit', {}),
        ],
        [],
      ),
    ).toThrow(conflictingExtensionSettingsMessage('com.example/audit', [first, second]));
  });

  it('names the first declaration, not the last one that agreed with it, in a conflict', () => {
    const first = '@McpExtension() of A';
    const agreeing = '@McpExtension() of B';
    const differing = '@McpExtension() of C';
    expect(() =>
      serverExtensions(
        undefined,
        [
          declaredBy(first, 'com.example/audit', { retentionDays: 30 }),
          declaredBy(agreeing, 'com.example/audit', { retentionDays: 30 }),
          declaredBy(differing, 'com.example/audit', { retentionDays: 1 }),
        ],
        [],
      ),
    ).toThrow(conflictingExtensionSettingsMessage('com.example/audit', [first, differing]));
  });
});
