/** How the client reached the server, as the conventions record it. */
export interface PeerFacts {
  /** `tcp` for HTTP, `pipe` for stdio and the in-process requester. */
  readonly transport: 'tcp' | 'pipe';
  readonly protocolName?: 'http';
  readonly protocolVersion?: string;
  readonly address?: string;
  readonly port?: number;
}

interface PlatformRequest {
  /** Express and Fastify: the client's address, behind proxies the app trusts. */
  ip?: unknown;
  socket?: object & { remoteAddress?: unknown; remotePort?: unknown };
  httpVersion?: unknown;
  headers?: Record<string, unknown>;
  /** Fastify: the Node.js request. */
  raw?: PlatformRequest;
}

/** Not an HTTP request: stdio, and the CLI's in-process requester. */
export const PIPE: PeerFacts = Object.freeze({ transport: 'pipe' });

/**
 * The peer of each keep-alive socket, once read. Without an `X-Forwarded-For` header, the
 * platform's `request.ip` (Express and Fastify, whatever proxies they trust) is the socket's
 * address, so the facts are the socket's and every request on it shares them; reading
 * `request.ip` costs Express a proxy-address evaluation per request.
 */
const bySocket = new WeakMap<object, PeerFacts>();

/**
 * The peer of an HTTP request, read from the platform's request (Express or Fastify).
 * `client.port` is the socket's, so it is left out when `client.address` is a client
 * behind a proxy rather than the socket's peer.
 */
export function httpPeerOf(platformRequest: unknown): PeerFacts {
  const request = (platformRequest ?? {}) as PlatformRequest;
  const node = request.raw ?? request;
  const socket = node.socket ?? request.socket;
  const version = typeof node.httpVersion === 'string' ? node.httpVersion : undefined;
  const forwarded = node.headers?.['x-forwarded-for'] !== undefined;
  if (socket && !forwarded) {
    const known = bySocket.get(socket);
    if (known && known.protocolVersion === version) return known;
  }
  const remoteAddress =
    typeof socket?.remoteAddress === 'string' ? socket.remoteAddress : undefined;
  const address = typeof request.ip === 'string' ? request.ip : remoteAddress;
  const port =
    address !== undefined && address === remoteAddress && typeof socket?.remotePort === 'number'
      ? socket.remotePort
      : undefined;
  const facts: { -readonly [K in keyof PeerFacts]: PeerFacts[K] } = {
    transport: 'tcp',
    protocolName: 'http',
  };
  if (version !== undefined) facts.protocolVersion = version;
  if (address !== undefined) facts.address = address;
  if (port !== undefined) facts.port = port;
  Object.freeze(facts);
  // Only the socket's own address is the socket's: a forwarded one is the request's.
  if (socket && !forwarded && address === remoteAddress) bySocket.set(socket, facts);
  return facts;
}
