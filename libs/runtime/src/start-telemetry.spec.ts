import { trace } from '@opentelemetry/api';
import { isTracingEnabled } from '@tollgate/platform';
import { startTelemetry } from './start-telemetry';

const sdkModules = () =>
  Object.keys(require.cache).filter((path) => path.includes('@opentelemetry/sdk-node'));

describe('startTelemetry without an endpoint', () => {
  it('loads no SDK, registers no exporter, starts once per process, and shuts down cleanly', async () => {
    const telemetry = await startTelemetry({ serviceName: 'quiet' });
    expect(telemetry.tracing).toBe(false);
    expect(isTracingEnabled()).toBe(false);
    expect(sdkModules()).toEqual([]);
    await expect(startTelemetry({ serviceName: 'again' })).rejects.toThrow(/already started/);
    const span = trace.getTracer('test').startSpan('unexported');
    expect(span.isRecording()).toBe(false);
    span.end();
    await telemetry.shutdown();
    const restarted = await startTelemetry({ serviceName: 'quiet' });
    await restarted.shutdown();
  });
});

describe('startTelemetry with an OTLP endpoint', () => {
  it('loads the SDK and reports tracing on until it shuts down', async () => {
    // Nothing is recorded, so the exporter never connects: no I/O.
    const telemetry = await startTelemetry({ serviceName: 'traced', otlpEndpoint: 'http://127.0.0.1:4318' });
    expect(telemetry.tracing).toBe(true);
    expect(isTracingEnabled()).toBe(true);
    expect(sdkModules()).not.toEqual([]);
    await telemetry.shutdown();
    expect(isTracingEnabled()).toBe(false);
  });
});
