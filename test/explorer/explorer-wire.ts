import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The headers of the explorer's pages (the shell, the view sandbox), the policy aside. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The page's policy of docs/explorer.md, with the authorization servers' origins. */
export const pageCsp = (connectOrigins: string[] = []): string =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "frame-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

/** A policy's directives, each with its sources. */
export function cspOf(header: string | undefined): Record<string, string[]> {
  if (!header) throw new Error('The response has no Content-Security-Policy');
  return Object.fromEntries(
    header
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The configuration in the shell's `<script id="mcp-explorer-config">`, parsed. */
export function configOf(html: string): Record<string, any> {
  const json = /<script type="application\/json" id="mcp-explorer-config">(.*?)<\/script>/s.exec(
    html,
  )?.[1];
  if (json === undefined) throw new Error(`The shell has no configuration:\n${html}`);
  return JSON.parse(json);
}

export interface MetadataServer {
  readonly issuer: string;
  close(): Promise<void>;
}

/**
 * An authorization server that only publishes its RFC 8414 metadata (`endpoints` added to
 * its issuer), on 127.0.0.1: what the explorer reads to build the page's policy.
 */
export async function startMetadataServer(
  endpoints: Record<string, string>,
): Promise<MetadataServer> {
  let issuer = '';
  const server = createServer((request, response) => {
    if (request.url !== '/.well-known/oauth-authorization-server') {
      response.writeHead(404).end();
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ issuer, ...endpoints }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
