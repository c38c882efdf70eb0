import { trace } from '@opentelemetry/api';
import { isTracingEnabled } from '@tollgate/platform';
import { startTelemetry } from './start-telemetry';

describe('startTelemetry without an endpoint', () => {
  it('registers no exporter, starts once per process, and shuts down cleanly', async () => {
    const telemetry = startTelemetry({ serviceName: 'quiet' });
    expect(telemetry.tracing).toBe(false);
    expect(isTracingEnabled()).toBe(false);
    expect(() => startTelemetry({ serviceName: 'again' })).toThrow(/already started/);
    const span = trace.getTracer('test').startSpan('unexported');
    expect(span.isRecording()).toBe(false);
    span.end();
    await telemetry.shutdown();
    const restarted = startTelemetry({ serviceName: 'quiet' });
    await restarted.shutdown();
  });
});

describe('startTelemetry with an OTLP endpoint', () => {
  it('reports tracing on until it shuts down', async () => {
    // Nothing is recorded, so the exporter never connects: no I/O.
    const telemetry = startTelemetry({ serviceName: 'traced', otlpEndpoint: 'http://127.0.0.1:4318' });
    expect(telemetry.tracing).toBe(true);
    expect(isTracingEnabled()).toBe(true);
    await telemetry.shutdown();
    expect(isTracingEnabled()).toBe(false);
  });
});
