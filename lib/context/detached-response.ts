/**
 * The response that guards, interceptors and filters see for an MCP call
 * (`context.switchToHttp().getResponse()`).
 *
 * The real HTTP response belongs to the MCP SDK: on the 2025 wire it is already streaming
 * when a tool runs, and a body written by an HTTP-minded filter would corrupt the MCP
 * answer. So this stand-in speaks the common Express/Fastify response API and records
 * what is written instead of sending it. Nothing an enhancer does to it can break the
 * call; what it records (a rate limiter's `Retry-After`) can still inform the result.
 */
export class DetachedResponse {
  readonly headersSent = false;
  readonly writableEnded = false;
  statusCode = 200;
  /** Express `res.locals`, for enhancers that pass values along. */
  readonly locals: Record<string, unknown> = {};
  /** A body an enhancer tried to send, for diagnostics. */
  body: unknown;
  private readonly headers = new Map<string, unknown>();

  setHeader(name: string, value: unknown): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  /** Express `res.set()` / `res.header()` (one header or an object of them), Fastify `reply.header()`. */
  set(field: string | Record<string, unknown>, value?: unknown): this {
    if (typeof field === 'string') return this.setHeader(field, value);
    for (const [name, inner] of Object.entries(field)) this.setHeader(name, inner);
    return this;
  }

  header(field: string | Record<string, unknown>, value?: unknown): this {
    return this.set(field, value);
  }

  append(name: string, value: unknown): this {
    return this.setHeader(name, value);
  }

  getHeader(name: string): unknown {
    return this.headers.get(name.toLowerCase());
  }

  get(name: string): unknown {
    return this.getHeader(name);
  }

  getHeaders(): Record<string, unknown> {
    return Object.fromEntries(this.headers);
  }

  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  /** Fastify's name for `status()`. */
  code(code: number): this {
    return this.status(code);
  }

  type(contentType: string): this {
    return this.setHeader('content-type', contentType);
  }

  json(body?: unknown): this {
    this.body = body;
    return this;
  }

  send(body?: unknown): this {
    this.body = body;
    return this;
  }

  sendStatus(code: number): this {
    return this.status(code);
  }

  write(): boolean {
    return true;
  }

  end(): this {
    return this;
  }

  cookie(): this {
    return this;
  }

  clearCookie(): this {
    return this;
  }

  redirect(): this {
    return this;
  }
}
