import { describe, expect, it } from 'vitest';
import {
  assertExtension,
  assertExtensionMethod,
  isSpecRequestMethod,
} from '../../lib/discovery/extension-method.check.js';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import {
  builtInExtensionMessage,
  builtInMethodMessage,
  invalidExtensionIdMessage,
  invalidExtensionSettingsMessage,
  invalidMethodNameMessage,
  specMethodMessage,
} from '../../lib/messages/extensions.messages.js';

const where = 'AuditExtension.recent';
const TASKS = 'io.modelcontextprotocol/tasks';

/** The configuration error `fn` fails with, or a test failure when it does not. */
function refusal(fn: () => void): McpConfigurationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(McpConfigurationError);
    return error as McpConfigurationError;
  }
  throw new Error('expected an McpConfigurationError, but nothing was thrown');
}

describe('isSpecRequestMethod', () => {
  it.each([
    'initialize',
    'ping',
    'tools/call',
    'tools/list',
    'prompts/get',
    'resources/read',
    'resources/templates/list',
    'resources/subscribe',
    'completion/complete',
    'logging/setLevel',
    // 2026-07-28
    'server/discover',
    'subscriptions/listen',
    // The tasks methods the SDK knows as MCP's own.
    'tasks/get',
    'tasks/list',
    'tasks/cancel',
    'tasks/result',
  ])('knows %s as a request method of MCP', (method) => {
    expect(isSpecRequestMethod(method)).toBe(true);
  });

  it.each([
    'com.example/audit.recent',
    'com.example/audit',
    'Tools/Call',
    'tools/call ',
    '',
    // Names of Object.prototype members are not methods of MCP.
    'constructor',
    'toString',
    '__proto__',
    'hasOwnProperty',
  ])('does not take %j for a request method of MCP', (method) => {
    expect(isSpecRequestMethod(method)).toBe(false);
  });

  it('gives the same answer when asked again (the probe server keeps no state that matters)', () => {
    expect(isSpecRequestMethod('tools/call')).toBe(true);
    expect(isSpecRequestMethod('com.example/audit.recent')).toBe(false);
    expect(isSpecRequestMethod('tools/call')).toBe(true);
    expect(isSpecRequestMethod('com.example/audit.recent')).toBe(false);
  });
});

describe('assertExtension', () => {
  const declared = '@McpExtension() of AuditExtension';

  it('accepts a valid identifier with object settings', () => {
    expect(() => assertExtension('com.example/audit', {}, declared)).not.toThrow();
    expect(() =>
      assertExtension('com.example/audit', { retentionDays: 30 }, declared),
    ).not.toThrow();
  });

  it.each([
    ['no slash', 'audit'],
    ['an empty string', ''],
    ['no vendor prefix', '/audit'],
    ['no extension name', 'com.example/'],
    ['spaces', 'com.example/audit log'],
    ['a non-string', 42],
  ])('refuses an identifier with %s, naming where it is declared', (_what, id) => {
    const error = refusal(() => assertExtension(id, {}, declared));
    expect(error.message).toBe(invalidExtensionIdMessage(id, declared));
    expect(error.message).toContain(declared);
    expect(error.message).toContain('"com.example/audit"');
  });

  it('refuses the tasks extension, which the library implements', () => {
    const error = refusal(() => assertExtension(TASKS, {}, declared));
    expect(error.message).toBe(builtInExtensionMessage(TASKS, declared));
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'on'],
    ['true', true],
  ])('refuses settings that are %s', (_what, settings) => {
    const error = refusal(() => assertExtension('com.example/audit', settings, declared));
    expect(error.message).toBe(invalidExtensionSettingsMessage('com.example/audit', declared));
  });
});

describe('assertExtensionMethod', () => {
  it.each(['com.example/audit.recent', 'com.example/audit/query', 'audit.recent', 'rpc'])(
    'accepts %s, a method of the app',
    (method) => {
      expect(() => assertExtensionMethod(method, where)).not.toThrow();
    },
  );

  it.each([
    ['an empty name', ''],
    ['a space', 'com.example/audit recent'],
    ['a leading space', ' com.example/audit.recent'],
    ['a tab', 'com.example/audit\trecent'],
    ['a newline at the end', 'com.example/audit.recent\n'],
    ['the JSON-RPC reserved prefix', 'rpc.discover'],
    ['a non-string', 42],
    ['undefined', undefined],
  ])('refuses %s as a JSON-RPC method name', (_what, method) => {
    const error = refusal(() => assertExtensionMethod(method, where));
    expect(error.message).toBe(invalidMethodNameMessage(method, where));
    expect(error.message).toContain(where);
    expect(error.message).toContain('"rpc."');
  });

  it.each([
    'tools/call',
    'initialize',
    'server/discover',
    'subscriptions/listen',
    'tasks/get',
    // A notification is MCP's by its namespace: the SDK check knows requests only.
    'notifications/cancelled',
    'notifications/com.example/audit',
  ])('refuses %s, a method of MCP itself', (method) => {
    const error = refusal(() => assertExtensionMethod(method, where));
    expect(error.message).toBe(specMethodMessage(method, where));
    expect(error.message).toContain(`${where} handles "${method}", a method of MCP itself`);
  });

  it('refuses tasks/update, a method of the tasks extension the SDK does not list as its own', () => {
    // Not a spec method for the SDK: the library's list of built-in extensions refuses it.
    expect(isSpecRequestMethod('tasks/update')).toBe(false);
    const error = refusal(() => assertExtensionMethod('tasks/update', where));
    expect(error.message).toBe(builtInMethodMessage('tasks/update', TASKS, where));
    expect(error.message).toContain(`"${TASKS}"`);
  });
});
