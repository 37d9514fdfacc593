import { Injectable, Module, type Type } from '@nestjs/common';
import { McpModule, McpResource, McpServerHost, type McpHttpOptions } from 'nestjs-mcp';
import { TICKER_URI } from '../support/listeners-ipc.js';

/** The resource every stream subscribes to, and how the app says that it changed. */
@Injectable()
export class Ticker {
  constructor(private readonly mcp: McpServerHost) {}

  @McpResource({ uri: TICKER_URI, description: 'A value that changes; subscribe to hear of it.' })
  ticker(): string {
    return 'tick';
  }

  /** The library's change notifier: `notifications/resources/updated` to its subscribers. */
  changed(): void {
    this.mcp.resourceUpdated(TICKER_URI);
  }
}

/**
 * Ours, holding `capacity` streams of one anonymous caller: the per-caller limits
 * (`http.maxStreamsPerCaller`, `legacySessions.maxSessionsPerCaller`, 10 by default) and the
 * totals (`http.maxListenStreams`, `legacySessions.maxSessions`, 10,000 by default) are
 * raised to it, with headroom for the warm-up's streams still closing.
 */
export function createListenersMcpApp(capacity: number, sessions: boolean): Type {
  const limit = capacity + 1_000;
  const http: McpHttpOptions = {
    maxStreamsPerCaller: limit,
    maxListenStreams: limit,
    ...(sessions && { legacySessions: { maxSessions: limit, maxSessionsPerCaller: limit } }),
  };
  @Module({
    imports: [McpModule.forRoot({ name: 'bench', version: '1.0.0', http })],
    providers: [Ticker],
  })
  class ListenersMcpAppModule {}
  return ListenersMcpAppModule;
}
