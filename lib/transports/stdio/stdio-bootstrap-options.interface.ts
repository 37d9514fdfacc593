import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Readable, Writable } from 'node:stream';
import type { CallerGuard, CallerRequestSource } from '../caller.authenticator.js';

/** Options of {@link bootstrapStdio}. */
export interface StdioBootstrapOptions {
  /**
   * The caller, as your guards see it: an object shaped like the HTTP request they read,
   * or a function returning one (called once, before serving). Header names are
   * lower-cased, as Node gives them. Guards that authenticate (see `guards`) may add to it,
   * for example `request.user`, which tool guards then read on every call.
   * @default `{ headers: { authorization: process.env.NESTJS_MCP_AUTHORIZATION } }`
   *   (no headers when the variable is not set)
   * @example request: { headers: { authorization: `Bearer ${process.env.API_TOKEN}` } }
   */
  request?: CallerRequestSource;
  /**
   * Guards run once on `request` before serving, as the HTTP endpoint runs `http.guards`
   * on each request. If one refuses, nothing is served and `bootstrapStdio` rejects with a
   * `CallerRefusedError`. Tool guards (`@UseGuards`, `@McpScopes`, global guards) still
   * run on every call.
   * @default the selected server's `http.guards`
   */
  guards?: CallerGuard[];
  /**
   * Which MCP server to serve, by its `McpModule` `name`, when the app has several.
   * @default the app's only MCP server
   */
  server?: string;
  /**
   * Nest's logger. Whatever it is, it must not write to stdout, which belongs to MCP.
   * @default a `StderrLogger` (Nest's console logger, every level on stderr)
   */
  logger?: LoggerService | LogLevel[] | false;
  /**
   * What to do with clients of protocol revision 2025-11-25 and older (`initialize`):
   * `'serve'` them, or `'reject'` them (only 2026-07-28 clients are served).
   * @default 'serve'
   */
  legacy?: 'serve' | 'reject';
  /**
   * Close the app and end the process with exit code 0 when stdin closes (the client
   * went away), as the MCP stdio binding asks. With `false` the app is closed and
   * `closed` resolves; the process is left alone.
   * @default true
   */
  exitOnClose?: boolean;
  /**
   * The language of titles, descriptions, instructions and messages when the server has
   * `i18n` (docs/i18n.md): one of its locales, or a region of one (`de-AT` finds `de`).
   * @default the environment's (`LC_ALL`, else `LC_MESSAGES`, else `LANG`: `de_DE.UTF-8`
   *   is `de-DE`), else the server's `i18n.defaultLocale`
   */
  locale?: string;
  /** Where MCP messages are read from. @default process.stdin */
  stdin?: Readable;
  /** Where MCP messages are written to. @default process.stdout */
  stdout?: Writable;
}
