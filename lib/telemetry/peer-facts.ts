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
  socket?: { remoteAddress?: unknown; remotePort?: unknown };
  httpVersion?: unknown;
  /** Fastify: the Node.js request. */
  raw?: PlatformRequest;
}

/** Not an HTTP request: stdio, and the CLI's in-process requester. */
export const PIPE: PeerFacts = { transport: 'pipe' };

/**
 * The peer of an HTTP request, read from the platform's request (Express or Fastify).
 * `client.port` is the socket's, so it is left out when `client.address` is a client
 * behind a proxy rather than the socket's peer.
 */
export function httpPeerOf(platformRequest: unknown): PeerFacts {
  const request = (platformRequest ?? {}) as PlatformRequest;
  const node = request.raw ?? request;
  const socket = node.socket ?? request.socket;
  const remoteAddress =
    typeof socket?.remoteAddress === 'string' ? socket.remoteAddress : undefined;
  const address = typeof request.ip === 'string' ? request.ip : remoteAddress;
  const port =
    address !== undefined && address === remoteAddress && typeof socket?.remotePort === 'number'
      ? socket.remotePort
      : undefined;
  const version = typeof node.httpVersion === 'string' ? node.httpVersion : undefined;
  return {
    transport: 'tcp',
    protocolName: 'http',
    ...(version !== undefined && { protocolVersion: version }),
    ...(address !== undefined && { address }),
    ...(port !== undefined && { port }),
  };
}
