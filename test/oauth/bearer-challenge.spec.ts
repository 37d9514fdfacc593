import { describe, expect, it } from 'vitest';
import { bearerChallenge, challengeScopes } from '../../lib/oauth/bearer-challenge.js';
import { extractBearerToken } from '../../lib/oauth/bearer-token.extractor.js';
import { OAuthChallengeError } from '../../lib/oauth/oauth-challenge.error.js';
import {
  protectedResourceMetadata,
  protectedResourceMetadataPath,
  protectedResourceMetadataUrl,
} from '../../lib/oauth/protected-resource-metadata.js';

const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

describe('bearerChallenge', () => {
  it('names only the metadata when no token was sent (RFC 6750 §3.1: no error code)', () => {
    expect(bearerChallenge({ resourceMetadata: METADATA })).toBe(
      `Bearer resource_metadata="${METADATA}"`,
    );
    expect(bearerChallenge({ scopes: ['mcp'], resourceMetadata: METADATA })).toBe(
      `Bearer scope="mcp", resource_metadata="${METADATA}"`,
    );
  });

  it('carries invalid_token with its description when a token was sent', () => {
    expect(
      bearerChallenge({
        error: 'invalid_token',
        description: 'The access token has expired: get a new one',
        resourceMetadata: METADATA,
      }),
    ).toBe(
      'Bearer error="invalid_token", error_description="The access token has expired: get a new one", ' +
        `resource_metadata="${METADATA}"`,
    );
  });

  it('names every scope of a 403 in one challenge, never offline_access, each once', () => {
    expect(
      bearerChallenge({
        error: 'insufficient_scope',
        description: 'needs more',
        scopes: ['catalog.read', 'offline_access', 'catalog.write', 'catalog.read'],
        resourceMetadata: METADATA,
      }),
    ).toBe(
      'Bearer error="insufficient_scope", error_description="needs more", ' +
        `scope="catalog.read catalog.write", resource_metadata="${METADATA}"`,
    );
    expect(challengeScopes(['offline_access'])).toEqual([]);
  });

  it('keeps the header one quoted-string per parameter whatever the description holds', () => {
    const header = bearerChallenge({
      error: 'invalid_token',
      description: 'a "quoted" \\ value\nwith ünïcode',
    });
    expect(header).toBe(
      `Bearer error="invalid_token", error_description="a 'quoted' ' value?with ?n?code"`,
    );
  });
});

const refusal = (request: Parameters<typeof extractBearerToken>[0]) => {
  try {
    extractBearerToken(request);
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthChallengeError);
    return (error as OAuthChallengeError).description;
  }
  throw new Error('expected a refusal');
};

describe('extractBearerToken', () => {
  it('reads the token of the Authorization header, scheme in any case', () => {
    expect(extractBearerToken({ headers: { authorization: 'Bearer abc.def-ghi_~+/=' } })).toBe(
      'abc.def-ghi_~+/=',
    );
    expect(extractBearerToken({ headers: { authorization: 'bearer tok' } })).toBe('tok');
  });

  it('finds no token without the header', () => {
    expect(extractBearerToken({ headers: {} })).toBeUndefined();
    expect(extractBearerToken({})).toBeUndefined();
  });

  it('refuses a token in the query string, even with a good header', () => {
    expect(
      refusal({ url: '/mcp?x=1&access_token=abc', headers: { authorization: 'Bearer tok' } }),
    ).toMatch(/^Access tokens are accepted only in the Authorization header/);
  });

  it('refuses a malformed header', () => {
    for (const authorization of ['Basic dXNlcjpwdw==', 'Bearer', 'Bearer a b', 'Bearer "x"']) {
      expect(refusal({ headers: { authorization } })).toBe(
        "The Authorization header must be 'Bearer <access token>' with exactly one token",
      );
    }
  });
});

describe('Protected Resource Metadata (RFC 9728)', () => {
  it('builds the document with header-only bearer methods', () => {
    expect(
      protectedResourceMetadata({
        resource: 'https://mcp.example.com/mcp',
        authorizationServers: ['https://auth.example.com'],
        scopesSupported: ['catalog.read'],
        resourceName: 'Catalog',
        resourceDocumentation: 'https://docs.example.com/mcp',
      }),
    ).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['catalog.read'],
      bearer_methods_supported: ['header'],
      resource_name: 'Catalog',
      resource_documentation: 'https://docs.example.com/mcp',
    });
  });

  it('leaves out scopes_supported when the server names no scope', () => {
    expect(
      protectedResourceMetadata({
        resource: 'https://mcp.example.com/mcp',
        authorizationServers: ['https://auth.example.com'],
        scopesSupported: [],
      }),
    ).not.toHaveProperty('scopes_supported');
  });

  it('inserts the well-known prefix before the path, at the host root', () => {
    expect(protectedResourceMetadataPath('api//mcp/')).toBe(
      '/.well-known/oauth-protected-resource/api/mcp',
    );
    expect(protectedResourceMetadataPath('')).toBe('/.well-known/oauth-protected-resource');
    expect(protectedResourceMetadataUrl('https://mcp.example.com/api/mcp')).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp',
    );
  });
});
