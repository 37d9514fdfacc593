import { describe, expect, it } from 'vitest';
import { McpConfigurationError } from '../../lib/errors/mcp-configuration.error.js';
import {
  builtInExtensionMessage,
  invalidExtensionIdMessage,
  invalidExtensionSettingsMessage,
} from '../../lib/messages/extensions.messages.js';
import {
  extensionProblem,
  extensionsOptionsProblems,
} from '../../lib/options/extensions-options.validator.js';
import { validateMcpModuleOptions } from '../../lib/options/mcp-module-options.validator.js';

const OPTION = 'the "extensions" option';
const TASKS = 'io.modelcontextprotocol/tasks';

describe('extensionProblem', () => {
  it.each([
    'com.example/audit',
    'io.modelcontextprotocol/oauth-client-credentials',
    'example/x',
    // The `_meta` key rules leave the case free.
    'Example/x',
    'com.my-company/audit_log.v2',
    'a1.b2/c',
  ])('accepts the identifier %s', (id) => {
    expect(extensionProblem(id, {}, OPTION)).toBeUndefined();
  });

  it.each([
    ['no slash', 'audit'],
    ['no slash, dotted', 'com.example.audit'],
    ['an empty string', ''],
    ['no vendor prefix', '/audit'],
    ['no extension name', 'com.example/'],
    ['two slashes', 'com.example/audit/log'],
    ['an empty label', 'com..example/audit'],
    ['a label starting with a digit', '1example/audit'],
    ['a label ending with a hyphen', 'example-/audit'],
    ['a name ending with a dot', 'com.example/audit.'],
    ['a space', 'com.example/audit log'],
    ['a number', 42],
    ['undefined', undefined],
  ])('refuses an identifier with %s', (_what, id) => {
    expect(extensionProblem(id, {}, OPTION)).toBe(invalidExtensionIdMessage(id, OPTION));
  });

  it('refuses the tasks extension, which nestjs-mcp advertises itself', () => {
    const problem = extensionProblem(TASKS, {}, OPTION);
    expect(problem).toBe(builtInExtensionMessage(TASKS, OPTION));
    expect(problem).toContain('implemented by nestjs-mcp itself');
  });

  it('accepts settings that are an object, empty or not', () => {
    expect(extensionProblem('com.example/audit', {}, OPTION)).toBeUndefined();
    expect(
      extensionProblem('com.example/audit', { retentionDays: 30, scopes: ['a'] }, OPTION),
    ).toBeUndefined();
  });

  it.each([
    ['an array', []],
    ['null', null],
    ['a string', 'on'],
    ['a number', 30],
    ['true', true],
    ['undefined', undefined],
  ])('refuses settings that are %s, saying {} declares none', (_what, settings) => {
    const problem = extensionProblem('com.example/audit', settings, OPTION);
    expect(problem).toBe(invalidExtensionSettingsMessage('com.example/audit', OPTION));
    expect(problem).toContain('{} when the extension defines none');
  });

  it('names the declaration it was given in the message', () => {
    const where = '@McpExtension() of AuditExtension';
    expect(extensionProblem('audit', {}, where)).toContain(where);
    expect(extensionProblem('com.example/audit', null, where)).toContain(where);
  });
});

describe('extensionsOptionsProblems', () => {
  it('has nothing to say when the option is left out or valid', () => {
    expect(extensionsOptionsProblems(undefined)).toEqual([]);
    expect(extensionsOptionsProblems({})).toEqual([]);
    expect(
      extensionsOptionsProblems({
        'com.example/audit': { retentionDays: 30 },
        'com.example/search': {},
      }),
    ).toEqual([]);
  });

  it.each([
    ['an array', [['com.example/audit', {}]]],
    ['null', null],
    ['a string', 'com.example/audit'],
  ])('refuses an option that is %s, with an example', (_what, extensions) => {
    const problems = extensionsOptionsProblems(extensions);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(
      '"extensions" must be an object of settings by extension identifier',
    );
    expect(problems[0]).toContain('"com.example/audit"');
  });

  it('lists one problem per bad entry, in order, and none for the good ones', () => {
    expect(
      extensionsOptionsProblems({
        audit: {},
        'com.example/ok': {},
        [TASKS]: {},
        'com.example/bad-settings': [],
      }),
    ).toEqual([
      invalidExtensionIdMessage('audit', OPTION),
      builtInExtensionMessage(TASKS, OPTION),
      invalidExtensionSettingsMessage('com.example/bad-settings', OPTION),
    ]);
  });
});

describe('validateMcpModuleOptions: extensions', () => {
  const base = { name: 'catalog', version: '1.0.0' };

  function messageOf(options: object): string {
    try {
      validateMcpModuleOptions({ ...base, ...options });
    } catch (error) {
      expect(error).toBeInstanceOf(McpConfigurationError);
      return (error as Error).message;
    }
    return '';
  }

  it('accepts app extensions with their settings', () => {
    expect(messageOf({ extensions: { 'com.example/audit': { retentionDays: 30 } } })).toBe('');
  });

  it('fails the bootstrap on a bad extension, listing the problem', () => {
    const message = messageOf({ extensions: { audit: {}, 'com.example/x': null } });
    expect(message).toMatch(/^Invalid McpModule options:\n/);
    expect(message).toContain(`  - ${invalidExtensionIdMessage('audit', OPTION)}`);
    expect(message).toContain(`  - ${invalidExtensionSettingsMessage('com.example/x', OPTION)}`);
  });

  it('refuses the tasks extension in the option', () => {
    expect(messageOf({ extensions: { [TASKS]: {} } })).toContain(
      builtInExtensionMessage(TASKS, OPTION),
    );
  });
});
