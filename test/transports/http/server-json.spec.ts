import { describe, expect, it } from 'vitest';
import {
  PUBLISHER_PROVIDED_META_KEY,
  REGISTRY_AUTHORIZATION_KEY,
  REGISTRY_SERVER_SCHEMA_URL,
  registryServerJson,
  registryVersionProblem,
  type ServerJsonFacts,
} from '../../../lib/transports/http/server-json.js';
import { serverJsonProblems } from '../../support/discovery-schemas.js';

const FACTS: ServerJsonFacts = {
  discovery: { name: 'com.example/catalog' },
  serverName: 'catalog',
  version: '1.0.0',
  instructions: 'Tools for the catalog. Use search first.',
  endpointUrl: 'https://mcp.example.com/mcp',
};

describe('registryServerJson', () => {
  it('is a server.json the registry schema accepts: name, version, description, the remote', () => {
    const { serverJson, leftOut } = registryServerJson(FACTS);
    expect(serverJsonProblems(serverJson)).toEqual([]);
    expect(serverJson).toEqual({
      $schema: REGISTRY_SERVER_SCHEMA_URL,
      name: 'com.example/catalog',
      version: '1.0.0',
      description: 'Tools for the catalog.',
      remotes: [{ type: 'streamable-http', url: 'https://mcp.example.com/mcp' }],
    });
    expect(leftOut).toEqual([]);
  });

  it('carries the declared fields and headers, as the card does', () => {
    const headers = [
      {
        name: 'Authorization',
        value: 'Bearer {token}',
        isRequired: true,
        isSecret: true,
        variables: { token: { description: 'Your API token', isSecret: true } },
      },
    ];
    const discovery = {
      name: 'io.github.alice/catalog',
      title: 'Product catalog',
      description: 'Search the catalog.',
      websiteUrl: 'https://example.com/docs',
      repository: { url: 'https://github.com/alice/catalog', source: 'github', id: '123' },
      icons: [{ src: 'https://example.com/icon.svg', mimeType: 'image/svg+xml', sizes: ['any'] }],
      headers,
    };
    const { serverJson } = registryServerJson({ ...FACTS, discovery });
    expect(serverJsonProblems(serverJson)).toEqual([]);
    expect(serverJson).toMatchObject({
      name: 'io.github.alice/catalog',
      title: 'Product catalog',
      description: 'Search the catalog.',
      websiteUrl: 'https://example.com/docs',
      repository: discovery.repository,
      icons: discovery.icons,
      remotes: [{ type: 'streamable-http', url: FACTS.endpointUrl, headers }],
    });
    // The document owns its copies.
    serverJson.remotes[0]!.headers![0]!.name = 'changed';
    expect(headers[0]!.name).toBe('Authorization');
  });

  it('links to the Protected Resource Metadata in the publisher metadata, with auth', () => {
    const resourceMetadata = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
    const { serverJson } = registryServerJson({ ...FACTS, resourceMetadata });
    expect(serverJsonProblems(serverJson)).toEqual([]);
    expect(serverJson._meta).toEqual({
      [PUBLISHER_PROVIDED_META_KEY]: { [REGISTRY_AUTHORIZATION_KEY]: { resourceMetadata } },
    });
    expect(serverJson.remotes[0]).not.toHaveProperty('headers');
  });

  it('leaves out the icons the registry refuses, and says which', () => {
    const icons = [
      { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] },
      { src: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' },
      { src: 'https://example.com/icon.gif', mimeType: 'image/gif' },
      { src: 'https://example.com/icon.webp', sizes: ['large'] },
    ];
    const { serverJson, leftOut } = registryServerJson({
      ...FACTS,
      discovery: { ...FACTS.discovery, icons },
    });
    expect(serverJson.icons).toEqual([icons[0]]);
    expect(leftOut).toEqual([
      'the icon data:image/png;base64,iVBORw0KGgo=',
      'the icon https://example.com/icon.gif',
      'the icon https://example.com/icon.webp',
    ]);
    expect(serverJsonProblems(serverJson)).toEqual([]);
    // What was left out is what the schema refuses (the check checks).
    expect(serverJsonProblems({ ...serverJson, icons: icons.slice(1) })).not.toEqual([]);
  });

  it('is refused by the schema without a name or with a remote that is not a URL', () => {
    const { serverJson } = registryServerJson(FACTS);
    const { name: _name, ...nameless } = serverJson;
    expect(serverJsonProblems(nameless)).toContain("/ must have required property 'name'");
    expect(
      serverJsonProblems({ ...serverJson, remotes: [{ type: 'streamable-http', url: 'mcp' }] }),
    ).not.toEqual([]);
  });
});

describe('registryVersionProblem', () => {
  it.each(['1.0.0', '2.1.0-alpha', '2026.07.28', '1.0.0+build.5'])('takes %s', (version) => {
    expect(registryVersionProblem(version)).toBeUndefined();
  });

  it.each(['^1.2.3', '~1.2.3', '>=1.2.3', '1.x', '1.*', '1.2.x', 'latest', '', '1.0 - 2.0'])(
    'refuses %j, as the registry does',
    (version) => {
      expect(registryVersionProblem(version)).toContain('one exact version');
    },
  );
});
