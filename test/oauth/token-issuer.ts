import {
  exportJWK,
  generateKeyPair,
  type CryptoKey,
  type JWK,
  type JWTPayload,
  SignJWT,
} from 'jose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a token is minted with; anything left out gets a valid value. */
export interface MintOptions {
  readonly scope?: string;
  readonly audience?: string | string[];
  readonly issuer?: string;
  readonly expiresIn?: number;
  readonly notBefore?: number;
  readonly typ?: string | null;
  readonly claims?: JWTPayload;
  /** Signs with a key the JWKS does not publish (a forged token). */
  readonly foreignKey?: boolean;
}

/**
 * A tiny authorization server for the tests: its RFC 8414 metadata and JWKS over real
 * HTTP on 127.0.0.1 (a free port), and the JWT access tokens it signs (RFC 9068, ES256).
 * Counts the requests for its keys, so a test can see that they are cached.
 */
export class TokenIssuer {
  issuer = '';
  jwksRequests = 0;
  metadataRequests = 0;
  private server?: Server;
  private privateKey!: CryptoKey;
  private foreign!: CryptoKey;
  publicJwk!: JWK;
  /** The keys the JWKS publishes; a test may rotate them. */
  keys: JWK[] = [];

  async start(options: { discovery?: 'oauth' | 'openid' } = {}): Promise<this> {
    const pair = await generateKeyPair('ES256', { extractable: true });
    this.privateKey = pair.privateKey;
    this.foreign = (await generateKeyPair('ES256')).privateKey;
    this.publicJwk = {
      ...(await exportJWK(pair.publicKey)),
      kid: 'key-1',
      alg: 'ES256',
      use: 'sig',
    };
    this.keys = [this.publicJwk];
    const metadataPath =
      options.discovery === 'openid'
        ? '/.well-known/openid-configuration'
        : '/.well-known/oauth-authorization-server';
    this.server = createServer((request, response) => {
      if (request.url === metadataPath) {
        this.metadataRequests += 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ issuer: this.issuer, jwks_uri: `${this.issuer}/jwks` }));
      } else if (request.url === '/jwks') {
        this.jwksRequests += 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ keys: this.keys }));
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** A signed access token for `audience`, valid unless the options say otherwise. */
  async mint(audience: string | string[], options: MintOptions = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const header = {
      alg: 'ES256',
      kid: 'key-1',
      ...(options.typ !== null && { typ: options.typ ?? 'at+jwt' }),
    };
    const jwt = new SignJWT({
      client_id: 'test-client',
      scope: options.scope ?? '',
      ...options.claims,
    })
      .setProtectedHeader(header)
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? audience)
      .setSubject('user-1')
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 300));
    if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
    return jwt.sign(options.foreignKey ? this.foreign : this.privateKey);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token (`alg: none`) with the given claims. */
export function unsignedToken(payload: JWTPayload): string {
  return `${base64url({ alg: 'none', typ: 'at+jwt' })}.${base64url(payload)}.`;
}

/** A token "signed" with HS256 using the issuer's public key as the HMAC secret. */
export async function hmacWithPublicKey(publicJwk: JWK, payload: JWTPayload): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const input = `${base64url({ alg: 'HS256', typ: 'at+jwt', kid: publicJwk.kid })}.${base64url(payload)}`;
  const signature = createHmac('sha256', JSON.stringify(publicJwk))
    .update(input)
    .digest('base64url');
  return `${input}.${signature}`;
}

/** The token with one claim of its payload changed, the signature kept. */
export function tamper(token: string, claims: JWTPayload): string {
  const [header, payload, signature] = token.split('.');
  const changed = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...claims };
  return `${header}.${base64url(changed)}.${signature}`;
}
