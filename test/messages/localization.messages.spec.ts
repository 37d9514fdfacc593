import { describe, expect, it } from 'vitest';
import {
  invalidYamlMessage,
  translationProblemsMessage,
} from '../../lib/messages/localization.messages.js';

describe('the messages about translations', () => {
  it('counts the problems and lists each on its own line', () => {
    expect(translationProblemsMessage('catalog', ['mcp.de.yaml:3: a', 'mcp.fr.yaml:7: b'])).toBe(
      'The translations of the MCP server "catalog" have 2 problem(s) (i18n.translations):\n' +
        '- mcp.de.yaml:3: a\n' +
        '- mcp.fr.yaml:7: b',
    );
  });

  it('points at the line and column of a YAML error', () => {
    expect(invalidYamlMessage('i18n/mcp.de.yaml', 4, 9, 'Nested mappings are not allowed')).toMatch(
      /^i18n\/mcp\.de\.yaml:4:9: not valid YAML: Nested mappings are not allowed\. Fix the syntax/,
    );
  });
});
