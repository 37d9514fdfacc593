import { describe, expect, it } from 'vitest';
import { entityTagOf, noneMatch } from '../../../lib/transports/http/server-card.routes.js';
import {
  aiCatalog,
  aiCatalogIdentifier,
  AUTHORIZATION_META_KEY,
  CAPABILITIES_META_KEY,
  describedAs,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_SCHEMA_URL,
  serverCard,
  serverCardUrl,
  type ServerCardFacts,
} from '../../../lib/transports/http/server-card.js';
import { serverCardProblems } from '../../support/discovery-schemas.js';

const FACTS: ServerCardFacts = {
  discovery: { name: 'com.example/catalog' },
  serverName: 'catalog',
  version: '1.0.0',
  instructions: 'Tools for the catalog. Use search first.',
  endpointUrl: 'https://mcp.example.com/mcp',
  protocolVersions: ['2025-06-18', '2026-07-28', '2025-11-25'],
  capabilities: { tools: { listChanged: true }, extensions: { 'com.example/audit': {} } },
};

describe('serverCard', () => {
  it('is a card the draft schema accepts, naming the server, its endpoint and its revisions', () => {
    const card = serverCard(FACTS);
    expect(serverCardProblems(card)).toEqual([]);
    expect(card).toEqual({
      $schema: SERVER_CARD_SCHEMA_URL,
      name: 'com.example/catalog',
      version: '1.0.0',
      description: 'Tools for the catalog.',
      remotes: [
        {
          type: 'streamable-http',
          url: 'https://mcp.example.com/mcp',
          supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18'],
        },
      ],
      _meta: {
        [CAPABILITIES_META_KEY]: {
          tools: { listChanged: true },
          extensions: { 'com.example/audit': {} },
        },
      },
    });
  });

  it('carries what the app declares, and with auth the link to the metadata', () => {
    const headers = [
      {
        name: 'X-API-Key',
        value: '{key}',
        isRequired: true,
        isSecret: true,
        variables: { key: { description: 'Your key', isSecret: true } },
      },
    ];
    const discovery = {
      name: 'io.github.alice/catalog',
      title: 'Product catalog',
      description: 'Search the catalog.',
      websiteUrl: 'https://example.com/docs',
      repository: { url: 'https://github.com/alice/catalog', source: 'github' },
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
      headers,
    };
    const card = serverCard({
      ...FACTS,
      discovery,
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    });
    expect(serverCardProblems(card)).toEqual([]);
    expect(card).toMatchObject({
      title: 'Product catalog',
      description: 'Search the catalog.',
      websiteUrl: 'https://example.com/docs',
      repository: discovery.repository,
      icons: discovery.icons,
      remotes: [{ headers }],
      _meta: {
        [AUTHORIZATION_META_KEY]: {
          resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
        },
      },
    });
    // The card owns its copies: changing it never changes the app's options.
    card.remotes![0]!.headers![0]!.name = 'changed';
    expect(headers[0]!.name).toBe('X-API-Key');
  });

  it('is refused by the schema when a required field is missing (the check checks)', () => {
    const { name: _name, ...nameless } = serverCard(FACTS);
    expect(serverCardProblems(nameless)).toContain("/ must have required property 'name'");
    expect(serverCardProblems({ ...serverCard(FACTS), name: 'catalog' })).not.toEqual([]);
  });
});

describe('describedAs', () => {
  const discovery = { name: 'com.example/catalog' };

  it('is the declared description first', () => {
    expect(describedAs({ ...discovery, description: 'Mine.' }, 'Theirs.', 'catalog')).toBe('Mine.');
  });

  it('is the first sentence of the instructions, whitespace folded', () => {
    expect(describedAs(discovery, '  Finds\n products.  Then more.', 'catalog')).toBe(
      'Finds products.',
    );
  });

  it('shortens a long first sentence at a word, to 100 characters', () => {
    const long = `${'word '.repeat(30)}end.`;
    const description = describedAs(discovery, long, 'catalog');
    expect(description.length).toBeLessThanOrEqual(100);
    expect(description).toMatch(/^word( word)*…$/);
  });

  it('names the server without instructions', () => {
    expect(describedAs(discovery, undefined, 'catalog')).toBe('The catalog MCP server');
  });
});

describe('the AI Catalog', () => {
  it('identifies a card by its reverse-DNS name, as the draft example does', () => {
    expect(aiCatalogIdentifier('com.example/weather')).toBe('urn:air:example.com:mcp:weather');
    expect(aiCatalogIdentifier('io.github.alice/catalog')).toBe(
      'urn:air:alice.github.io:mcp:catalog',
    );
  });

  it('lists one entry per card, pointing at its URL', () => {
    expect(
      aiCatalog([{ name: 'com.example/weather', url: serverCardUrl('https://example.com/mcp/') }]),
    ).toEqual({
      specVersion: '1.0',
      entries: [
        {
          identifier: 'urn:air:example.com:mcp:weather',
          type: SERVER_CARD_MEDIA_TYPE,
          url: 'https://example.com/mcp/server-card',
        },
      ],
    });
  });
});

describe('the entity tag', () => {
  it('is a strong tag of the bytes', () => {
    expect(entityTagOf('{}')).toMatch(/^"[\w-]{43}"$/);
    expect(entityTagOf('{}')).toBe(entityTagOf('{}'));
    expect(entityTagOf('{"a":1}')).not.toBe(entityTagOf('{}'));
  });

  it('matches If-None-Match as RFC 9110 compares it (weakly, in a list, or *)', () => {
    const tag = entityTagOf('{}');
    expect(noneMatch(tag, tag)).toBe(true);
    expect(noneMatch(`"other", W/${tag}`, tag)).toBe(true);
    expect(noneMatch('*', tag)).toBe(true);
    expect(noneMatch('"other"', tag)).toBe(false);
    expect(noneMatch(undefined, tag)).toBe(false);
  });
});
