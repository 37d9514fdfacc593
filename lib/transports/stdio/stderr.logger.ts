import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger with every level on stderr. Over stdio, stdout carries the MCP
 * stream and nothing else: Nest's `log`, `warn` and `debug` lines, which `ConsoleLogger`
 * writes to stdout, would corrupt it. Colours only when stderr is a terminal, so the log
 * files MCP clients keep (Claude Desktop's `mcp-server-*.log`) stay plain text.
 * @publicApi
 */
export class StderrLogger extends ConsoleLogger {
  constructor(options: ConsoleLoggerOptions = {}) {
    super({ colors: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR, ...options });
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, any>,
  ): void {
    // JSON mode prints through here too, so one override covers both formats.
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
