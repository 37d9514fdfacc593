import { Injectable, Module, type Type } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { IsString } from 'class-validator';
import {
  McpContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpTool,
  McpToolError,
  type McpCallContext,
  type McpModuleOptions,
} from 'nestjs-mcp';

export class WeatherQuery {
  /** The city to forecast. */
  @IsString()
  city!: string;
}

export class SummaryArgs {
  @IsString()
  topic!: string;
}

/** How many `wait` calls have started, for a test to cancel one in flight. */
export const waitingCalls = { count: 0 };

/** A small server whose answers cover each outcome the conventions name. */
@Injectable()
export class TelemetryTools {
  @McpTool({ name: 'get_weather', description: 'The weather in a city.' })
  weather(query: WeatherQuery) {
    return { city: query.city, temperature: 21 };
  }

  @McpTool({ name: 'no_forecast', description: 'Always answers with a tool error.' })
  noForecast(): never {
    throw new McpToolError('No forecast for that city.');
  }

  @McpPrompt({ name: 'summary', description: 'Summarise a topic.' })
  summary(args: SummaryArgs) {
    return `Summarise ${args.topic}.`;
  }

  @McpPrompt({ name: 'broken', description: 'Fails with an unexpected error.' })
  broken(): never {
    throw new Error('the prompt store is down');
  }

  @McpTool({ name: 'wait', description: 'Answers once its caller cancels it.' })
  async wait(@McpContext() call: McpCallContext) {
    waitingCalls.count++;
    await new Promise((resolve) => call.signal.addEventListener('abort', resolve));
    return 'cancelled';
  }

  @McpTool({ name: 'lookup_station', description: 'Looks a station up, in a span of its own.' })
  async lookupStation(query: WeatherQuery) {
    // After an await, as an app's database call would be: the request's context must carry.
    await new Promise((resolve) => setImmediate(resolve));
    const span = trace.getTracer('telemetry-fixture').startSpan('station lookup');
    span.setAttribute('station.city', query.city);
    span.end();
    return `station of ${query.city}`;
  }

  @McpResource({ uri: 'weather://cities', description: 'The cities with a forecast.' })
  cities() {
    return ['Lyon', 'Oslo'];
  }
}

/** The fixture app's module; `telemetry` and `legacySessions` as a test needs them. */
export function telemetryAppModule(
  options: { telemetry?: McpModuleOptions['telemetry']; legacySessions?: boolean } = {},
): Type {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'telemetry-fixture',
        version: '1.0.0',
        http: { path: 'mcp', ...(options.legacySessions && { legacySessions: true }) },
        ...(options.telemetry !== undefined && { telemetry: options.telemetry }),
      }),
    ],
    providers: [TelemetryTools],
  })
  class TelemetryAppModule {}
  return TelemetryAppModule;
}
