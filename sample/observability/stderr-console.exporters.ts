import { Console } from 'node:console';
import { ConsoleMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { ConsoleSpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

type Done = Parameters<ConsoleSpanExporter['export']>[1];

// The SDK's console exporters print with the global `console.dir`, which writes to stdout.
// Over stdio, stdout carries MCP alone: these print the same text on stderr instead. The
// SDK's exporters print synchronously, so `console.dir` is swapped for the call only.
const stderr = new Console({ stdout: process.stderr, stderr: process.stderr });

function onStderr<T>(print: () => T): T {
  const dir = console.dir;
  console.dir = stderr.dir.bind(stderr);
  try {
    return print();
  } finally {
    console.dir = dir;
  }
}

/** `ConsoleSpanExporter`, printing on stderr. */
export class StderrConsoleSpanExporter extends ConsoleSpanExporter {
  override export(spans: ReadableSpan[], done: Done): void {
    onStderr(() => super.export(spans, done));
  }
}

/** `ConsoleMetricExporter`, printing on stderr. */
export class StderrConsoleMetricExporter extends ConsoleMetricExporter {
  override export(metrics: ResourceMetrics, done: Done): void {
    onStderr(() => super.export(metrics, done));
  }
}
