import { describe, expect, it } from 'vitest';
import { McpModule } from 'nestjs-mcp';
import { Test } from '@nestjs/testing';
import {
  authOptionsProblems,
  authResourceProblems,
} from '../../lib/options/auth-options.validator.js';
import { authResourceRequiredMessage } from '../../lib/messages/options.messages.js';

describe('authOptionsProblems', () => {
  it('accepts a complete configuration, and http only for localhost', () => {
    expect(
      authOptionsProblems({
        authorizationServers: ['https://auth.example.com', 'http://localhost:8080/realms/x'],
        resource: 'https://mcp.example.com/mcp',
        audience: ['api://mcp'],
        scopesSupported: ['catalog.read'],
        requiredScopes: ['mcp'],
        verifyToken: async () => ({}),
        introspection: {
          issuer: 'https://auth.example.com/',
          clientId: 'mcp',
          clientSecret: 'secret',
          cacheTtlSeconds: 0,
        },
        resourceName: 'Catalog',
        resourceDocumentation: 'https://docs.example.com/mcp#auth',
        algorithms: ['RS256', 'ES256'],
        clockToleranceSeconds: 0,
        tokenTypes: ['at+jwt', 'JWT'],
      }),
    ).toEqual([]);
    expect(authOptionsProblems(undefined)).toEqual([]);
  });

  it('says what to fix in each wrong value', () => {
    expect(
      authOptionsProblems({
        authorizationServers: ['http://auth.example.com', 'not a url', 'https://a.example.com?x=1'],
        resource: 'https://mcp.example.com/mcp#frag',
        audience: [],
        requiredScopes: ['two words'],
        verifyToken: 'yes',
        introspection: { clientId: '' },
        algorithms: ['HS256', 'none', 'RS256'],
        clockToleranceSeconds: -1,
      }),
    ).toEqual([
      '"auth.authorizationServers[0]" must be an https URL (got "http://auth.example.com"); plain http is accepted only for localhost and 127.0.0.1',
      '"auth.authorizationServers[1]" must be an absolute issuer URL such as \'https://auth.example.com\' (got "not a url")',
      '"auth.authorizationServers[2]" must be the issuer exactly as the authorization server names it, without query or fragment (got "https://a.example.com?x=1")',
      '"auth.resource" must not have a fragment (RFC 8707): use "https://mcp.example.com/mcp"',
      '"auth.audience" must be a string or a non-empty array of strings: the "aud" a token must name (got [])',
      '"auth.requiredScopes" must hold OAuth scope tokens: no spaces, quotes or backslashes (got ["two words"])',
      '"auth.verifyToken" must be a function (token, request) => Promise<AuthInfo> that throws when the token is not valid',
      '"auth.introspection.clientId" must be the client id this server authenticates to the introspection endpoint with',
      '"auth.introspection.clientSecret" must be the client secret of "auth.introspection.clientId"',
      '"auth.introspection.issuer" must name the authorization server whose opaque tokens are introspected (one of http://auth.example.com, not a url, https://a.example.com?x=1): a token that is not a JWT names no issuer, and is never sent to another one',
      '"auth.algorithms" may list only asymmetric algorithms (RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519); remove HS256, none',
      '"auth.clockToleranceSeconds" must be a whole number of seconds, 0 or more (got -1)',
    ]);
  });

  it('says what to fix in the other options, and lets a documentation URL keep its fragment', () => {
    expect(authOptionsProblems('https://auth.example.com')).toEqual([
      `"auth" must be an object such as auth: { authorizationServers: ['https://auth.example.com'], resource: 'https://mcp.example.com/mcp' }`,
    ]);
    expect(
      authOptionsProblems({
        authorizationServers: ['http://[::1]:8080'],
        resource: 'ftp://mcp.example.com',
        scopesSupported: 'catalog.read',
        tokenTypes: ['at+jwt', ''],
        introspection: {
          clientId: 'mcp',
          clientSecret: 'secret',
          endpoint: 'http://auth.example.com/introspect',
        },
        resourceName: '',
        resourceDocumentation: 'docs',
        algorithms: [],
      }),
    ).toEqual([
      `"auth.resource" must be an absolute http(s) URL such as 'https://mcp.example.com/mcp' (got "ftp://mcp.example.com")`,
      '"auth.scopesSupported" must be an array of non-empty strings',
      '"auth.tokenTypes" must be an array of non-empty strings',
      `"auth.introspection.endpoint" must be an https URL (http only for localhost) (got "http://auth.example.com/introspect"); leave it out to use the authorization server's introspection_endpoint`,
      `"auth.resourceName" must be a non-empty string, such as 'Catalog MCP server'`,
      `"auth.resourceDocumentation" must be an absolute http(s) URL such as 'https://mcp.example.com/mcp' (got "docs")`,
      `"auth.algorithms" must be a non-empty array of JWS algorithms such as ['RS256', 'ES256']`,
    ]);
    expect(
      authOptionsProblems({
        authorizationServers: ['https://auth.example.com'],
        introspection: 'yes',
        resourceDocumentation: 'https://docs.example.com/mcp#auth',
      }),
    ).toEqual([
      `"auth.introspection" must be an object such as { clientId: 'mcp-server', clientSecret: process.env.INTROSPECTION_SECRET }`,
    ]);
  });

  it('names the one issuer whose opaque tokens are introspected, and a cache bound in seconds', () => {
    const two = ['https://a.example.com', 'https://b.example.com'];
    const credentials = { clientId: 'mcp', clientSecret: 'secret' };
    expect(
      authOptionsProblems({
        authorizationServers: two,
        resource: 'https://mcp.example.com/mcp',
        introspection: credentials,
      }),
    ).toEqual([
      '"auth.introspection.issuer" must name the authorization server whose opaque tokens are introspected (one of https://a.example.com, https://b.example.com): a token that is not a JWT names no issuer, and is never sent to another one',
    ]);
    expect(
      authOptionsProblems({
        authorizationServers: two,
        introspection: { ...credentials, issuer: 'https://c.example.com', cacheTtlSeconds: 1.5 },
      }),
    ).toEqual([
      '"auth.introspection.issuer" must be one of "auth.authorizationServers" (https://a.example.com, https://b.example.com) (got "https://c.example.com")',
      '"auth.introspection.cacheTtlSeconds" must be a whole number of seconds, 0 or more (got 1.5); 0 asks the authorization server about every request',
    ]);
    expect(
      authOptionsProblems({
        authorizationServers: two,
        introspection: { ...credentials, issuer: 'https://b.example.com/' },
      }),
    ).toEqual([]);
  });

  it('wants auth.resource on the HTTP endpoint unless http.allowedHosts lists its hosts', () => {
    const auth = { authorizationServers: ['https://auth.example.com'] };
    expect(authResourceProblems(auth, undefined)).toEqual([authResourceRequiredMessage()]);
    expect(authResourceProblems(auth, { allowedHosts: [] })).toEqual([
      authResourceRequiredMessage(),
    ]);
    expect(authResourceProblems(auth, { allowedHosts: ['mcp.example.com'] })).toEqual([]);
    expect(authResourceProblems({ ...auth, resource: 'https://mcp.example.com/mcp' }, {})).toEqual(
      [],
    );
    // Without HTTP (stdio only), the token's audience is checked against resource or audience.
    expect(authResourceProblems(auth, false)).toEqual([]);
    expect(authResourceProblems(undefined, undefined)).toEqual([]);
    expect(authResourceRequiredMessage()).toContain(
      "Set auth.resource: 'https://<your host>/mcp' (recommended), or list the hosts this server answers to in http.allowedHosts",
    );
  });

  it('wants a non-empty list of issuers', () => {
    expect(authOptionsProblems({ authorizationServers: [] })).toEqual([
      `"auth.authorizationServers" must be a non-empty array of issuer URLs, such as auth: { authorizationServers: ['https://auth.example.com'], resource: 'https://mcp.example.com/mcp' }`,
    ]);
  });

  it('stops the bootstrap of McpModule with the problem and names a mistyped key', async () => {
    const compile = Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'x',
          version: '1',
          auth: { authorizationServers: [], requiredScope: ['a'] } as never,
        }),
      ],
    }).compile();
    await expect(compile).rejects.toThrow(/"auth\.authorizationServers" must be a non-empty array/);
    await expect(compile).rejects.toThrow(/requiredScope/);
  });

  it('stops the bootstrap of McpModule with auth but neither auth.resource nor http.allowedHosts', async () => {
    const auth = { authorizationServers: ['https://auth.example.com'] };
    const compile = (http?: { allowedHosts: string[] }) =>
      Test.createTestingModule({
        imports: [McpModule.forRoot({ name: 'x', version: '1', auth, ...(http && { http }) })],
      }).compile();
    await expect(compile()).rejects.toThrow(/"auth\.resource" is required on the HTTP endpoint/);
    const served = await compile({ allowedHosts: ['localhost'] });
    await served.close();
  });
});
