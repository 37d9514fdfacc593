import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpModule, McpServerHost } from 'nestjs-mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateCaller } from '../../lib/transports/caller.authenticator.js';
import { TokenIssuer } from './token-issuer.js';

const RESOURCE = 'https://notes.example.com/mcp';

describe('stdio and the CLI with auth: the caller token is verified once', () => {
  let issuer: TokenIssuer;
  let app: Awaited<ReturnType<typeof create>>;

  const create = async () => {
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'notes',
          version: '1.0.0',
          http: false,
          auth: { authorizationServers: [issuer.issuer], resource: RESOURCE },
        }),
      ],
    })
    class NotesModule {}
    return Test.createTestingModule({ imports: [NotesModule] }).compile();
  };

  beforeAll(async () => {
    issuer = await new TokenIssuer().start();
    app = await create();
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it('sets request.auth and request.user from a valid token', async () => {
    const token = await issuer.mint(RESOURCE, { scope: 'notes.read' });
    const request: Record<string, any> = { headers: { authorization: `Bearer ${token}` } };
    await authenticateCaller(app, app.get(McpServerHost), request);
    expect(request.auth).toMatchObject({ clientId: 'test-client', scopes: ['notes.read'] });
    expect(request.user).toMatchObject({ sub: 'user-1', scopes: ['notes.read'] });
  });

  it('refuses the connection with a clear message for a bad token', async () => {
    const token = await issuer.mint('https://other.example.com/mcp');
    await expect(
      authenticateCaller(app, app.get(McpServerHost), {
        headers: { authorization: `Bearer ${token}` },
      }),
    ).rejects.toThrow(
      'The MCP caller was refused by the auth option (OAuth access token): The access token was ' +
        `not issued for this resource: its aud must name ${RESOURCE} (request the token ` +
        'with this resource as the resource parameter, RFC 8707) (invalid_token)',
    );
  });

  it('leaves a caller without a token to the guards', async () => {
    const request: Record<string, any> = { headers: {} };
    await authenticateCaller(app, app.get(McpServerHost), request);
    expect(request.auth).toBeUndefined();
  });
});
