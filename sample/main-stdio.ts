import 'reflect-metadata';
import { bootstrapStdio, CallerRefusedError } from 'nestjs-mcp/stdio';
import { AppModule } from './app.module.js';
import { startSampleTelemetry } from './observability/console-telemetry.js';
import { loadSampleConfig } from './sample.config.js';

/**
 * The sample over stdio, for clients that start their servers as processes (Claude
 * Desktop). The caller is the bearer token in `SAMPLE_TOKEN` (the admin token by default):
 * the app's `BearerTokenGuard` (its `http.guards`) checks it once at start, and the tools'
 * own guards see that caller on every call. Stdout carries MCP only; logs go to stderr, and
 * so do the spans and metrics of `SAMPLE_OTEL=console`.
 */
const config = loadSampleConfig();
const token = process.env.SAMPLE_TOKEN || config.adminToken;

startSampleTelemetry('stdio')
  .then(() =>
    bootstrapStdio(AppModule, {
      request: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  .catch((error: Error) => {
    const message =
      error instanceof CallerRefusedError
        ? `SAMPLE_TOKEN was refused (${error.reason}): set it to ${
            config.oauth
              ? `an access token of ${config.oauth.issuer} for the sample's resource`
              : `${config.readerToken} or ${config.adminToken}`
          }.`
        : (error.stack ?? error.message);
    process.stderr.write(`${message}\n`);
    process.exit(1);
  });
