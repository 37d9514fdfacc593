import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { McpTelemetry } from '../../lib/telemetry/mcp-telemetry.js';

describe('McpTelemetry', () => {
  afterEach(() => {
    trace.disable();
    metrics.disable();
  });

  it('is off with telemetry: false', () => {
    expect(McpTelemetry.create(false)).toBeUndefined();
  });

  it('records nothing while no provider is registered', () => {
    const telemetry = McpTelemetry.create(undefined)!;
    expect(telemetry.recording).toBe(false);
    expect(telemetry.currentTracer()).toBeUndefined();
    expect(telemetry.currentInstruments()).toBeUndefined();
  });

  it('follows the providers the app registers and removes, after bootstrap too', () => {
    const telemetry = McpTelemetry.create({})!;
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    expect(telemetry.currentTracer()).toBeDefined();
    expect(telemetry.currentInstruments()).toBeUndefined();
    expect(telemetry.recording).toBe(true);
    metrics.setGlobalMeterProvider(new MeterProvider());
    expect(telemetry.currentInstruments()).toBeDefined();
    trace.disable();
    metrics.disable();
    expect(telemetry.recording).toBe(false);
  });
});
