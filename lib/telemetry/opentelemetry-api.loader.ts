import { createRequire } from 'node:module';
import type * as OpenTelemetryApi from '@opentelemetry/api';

/** The `@opentelemetry/api` module, as the app installed it. */
export type OtelApi = typeof OpenTelemetryApi;

const load = createRequire(import.meta.url);
let loaded: { readonly api?: OtelApi } | undefined;

/**
 * `@opentelemetry/api` is an optional peer: required on first use (at bootstrap, never when
 * `nestjs-mcp` is imported), and `undefined` when the app does not have it. Requiring the
 * CommonJS build is safe next to an app that imports the ES module build: the API keeps
 * its providers, context manager and propagator on `globalThis`, shared by both.
 */
export function loadOpenTelemetryApi(): OtelApi | undefined {
  if (loaded) return loaded.api;
  try {
    loaded = { api: load('@opentelemetry/api') as OtelApi };
  } catch {
    loaded = {};
  }
  return loaded.api;
}

/** The version of this package, for the instrumentation scope of its spans and metrics. */
export function packageVersion(): string | undefined {
  try {
    // lib/telemetry/ and dist/telemetry/ both sit two levels below the package root.
    return (load('../../package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}
