import { Controller, Injectable, Module, Sse, type MessageEvent, type Type } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import { PLAIN_EVENTS_PATH, TICKER_URI } from '../support/listeners-ipc.js';

/** The events every open stream of the plain route gets: one `Subject`, as a Nest app has it. */
@Injectable()
export class PlainEvents {
  private readonly events = new Subject<MessageEvent>();
  readonly stream: Observable<MessageEvent> = this.events.asObservable();

  /** One event to every stream, the same JSON-RPC notification our streams carry. */
  publish(): void {
    this.events.next({
      type: 'message',
      data: {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: TICKER_URI, _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
      },
    });
  }
}

@Controller()
class PlainEventsController {
  constructor(private readonly plainEvents: PlainEvents) {}

  @Sse(PLAIN_EVENTS_PATH.slice(1))
  events(): Observable<MessageEvent> {
    return this.plainEvents.stream;
  }
}

/** The ceiling of the listeners bench: a plain Nest `@Sse()` route, no MCP code. */
@Module({ controllers: [PlainEventsController], providers: [PlainEvents] })
class PlainEventsAppModule {}

export const plainEventsAppModule: Type = PlainEventsAppModule;
