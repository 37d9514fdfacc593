/** One HTTP request as it left the page: what "Copy as curl" repeats. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
  /** The JSON-RPC method of the body, when it is a request. */
  rpcMethod?: string;
}

/** The JSON-RPC method of a request body, or undefined for a notification, a response, a batch. */
function rpcMethodOf(body: string): string | undefined {
  try {
    const message = JSON.parse(body) as { method?: unknown; id?: unknown };
    return typeof message.method === 'string' && message.id !== undefined
      ? message.method
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `fetch` that reports each POSTed JSON-RPC request with its exact headers and body, so the
 * page can show the curl of the last one: what the SDK client really sent, not a rebuilt copy.
 */
export function recordingFetch(onRequest: (request: RecordedRequest) => void): typeof fetch {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method === 'POST' && typeof init?.body === 'string') {
      const headers: [string, string][] = [];
      new Headers(init.headers).forEach((value, name) => headers.push([name, value]));
      const url = input instanceof Request ? input.url : String(input);
      const rpcMethod = rpcMethodOf(init.body);
      if (rpcMethod) onRequest({ method, url, headers, body: init.body, rpcMethod });
    }
    return fetch(input, init);
  };
}
