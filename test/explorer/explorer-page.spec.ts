import { describe, expect, it } from 'vitest';
import {
  clientMetadataDocument,
  explorerShell,
  scriptJson,
  viewSandboxPage,
} from '../../lib/explorer/explorer-page.js';
import { configOf } from './explorer-wire.js';

const config = {
  title: 'Shop',
  endpoint: '/mcp',
  servers: [{ name: 'shop', title: 'Shop', endpoint: '/mcp', explorer: '/mcp/explorer' }],
  locales: ['en', 'de'],
  sandbox: '/mcp/explorer/view-sandbox',
};

describe('scriptJson', () => {
  it('writes < as \\u003c, so that no value closes the script or opens a comment', () => {
    const value = { title: '</script><script>alert(1)</script><!--', more: ['<'] };
    const json = scriptJson(value);
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('explorerShell', () => {
  it('carries the configuration, which reads back as it was given', () => {
    const hostile = { ...config, title: '</script><img src=x onerror=alert(1)>' };
    const html = explorerShell(hostile.title, '/mcp/explorer', hostile);
    expect(configOf(html)).toEqual(hostile);
    expect(html).toContain(
      '<title>&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; · MCP explorer</title>',
    );
    expect(html).not.toContain('<img');
  });

  it('loads nothing but its own stylesheet and script, and nothing inline', () => {
    const html = explorerShell('Shop', '/api/mcp/explorer', config);
    expect(html.match(/(?:src|href)="[^"]*"/g)).toEqual([
      'href="/api/mcp/explorer/assets/explorer.css"',
      'src="/api/mcp/explorer/assets/explorer.js"',
    ]);
    expect(html).not.toMatch(/\son\w+=|style=|javascript:/);
  });
});

describe('viewSandboxPage', () => {
  it('loads the sandbox script of the explorer, and nothing else', () => {
    expect(viewSandboxPage('/mcp/explorer')).toBe(
      '<!doctype html><html><head><meta charset="utf-8">' +
        '<script type="module" src="/mcp/explorer/assets/sandbox.js"></script>' +
        '</head><body></body></html>',
    );
  });
});

describe('clientMetadataDocument', () => {
  it('is a public client with PKCE, redirected to the explorer only', () => {
    const id = 'https://mcp.example.com/mcp/explorer/oauth/client-metadata.json';
    expect(
      clientMetadataDocument(id, 'https://mcp.example.com/mcp/explorer/oauth/callback'),
    ).toEqual({
      client_id: id,
      client_name: 'MCP explorer',
      redirect_uris: ['https://mcp.example.com/mcp/explorer/oauth/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });
});
