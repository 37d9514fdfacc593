import { describe, expect, it } from 'vitest';
import {
  duplicateServerPathMessage,
  unknownServerMessage,
} from '../../lib/messages/serving.messages.js';

describe('the messages about serving', () => {
  it("lists the app's servers, or says how to have one", () => {
    expect(unknownServerMessage('billing', ['catalog', 'admin'])).toBe(
      'There is no MCP server named "billing"; the app\'s servers are: catalog, admin.',
    );
    expect(unknownServerMessage('billing', [])).toMatch(
      /servers are: none \(import McpModule\.forRoot\(\{ name, version \}\)\)\.$/,
    );
  });

  it('suggests a path of its own for the second server', () => {
    expect(duplicateServerPathMessage('catalog', 'admin', 'mcp')).toContain(
      `both claim the HTTP path "/mcp". Give each registration its own http.path, such as ` +
        `http: { path: 'mcp/admin' }`,
    );
  });
});
