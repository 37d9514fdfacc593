import { describe, expect, it } from 'vitest';
import {
  invalidAsyncOptionsMessage,
  invalidOptionsMessage,
  invalidStdioOptionsMessage,
  unknownOptionMessage,
} from '../../lib/messages/options.messages.js';

/** The bullet lines of a message, without their indent. */
const bullets = (message: string) =>
  message
    .split('\n')
    .filter((line) => line.startsWith('  - '))
    .map((line) => line.slice(4));

describe('the messages of invalid options', () => {
  it('list every problem as a bullet, then a correct example for the entry point', () => {
    const problems = ['"name" must be a non-empty string (got "")', '"pageSize" must be positive'];
    const message = invalidOptionsMessage(problems);
    expect(message).toMatch(/^Invalid McpModule options:\n {2}- "name"/);
    expect(bullets(message)).toEqual(problems);
    expect(message).toContain("A correct example:\nMcpModule.forRoot({\n  name: 'catalog',");

    expect(invalidAsyncOptionsMessage(['x'])).toMatch(
      /^Invalid McpModule\.forRootAsync\(\) options:\n {2}- x\nA correct example:\nMcpModule\.forRootAsync\(\{/,
    );
    expect(invalidStdioOptionsMessage(['x'])).toMatch(
      /^Invalid bootstrapStdio\(\) options:\n {2}- x\nA correct example:\nbootstrapStdio\(AppModule, \{/,
    );
  });
});

describe('unknownOptionMessage', () => {
  it('names the option the key was most likely meant to be', () => {
    expect(unknownOptionMessage('http.gaurds', 'http.guards', 'http', ['path', 'guards'])).toBe(
      '`http.gaurds` is not an option; did you mean `http.guards`?',
    );
  });

  it('lists the valid options of the level when nothing is close, naming a nested level', () => {
    expect(unknownOptionMessage('requestState.ttl', undefined, 'requestState', ['secret'])).toBe(
      '`requestState.ttl` is not an option; valid options of `requestState` are: secret',
    );
    expect(unknownOptionMessage('colour', undefined, '', ['name', 'version'])).toBe(
      '`colour` is not an option; valid options are: name, version',
    );
  });
});
