import { trace } from '@opentelemetry/api';
import { startTelemetry } from './start-telemetry';

describe('startTelemetry without an endpoint', () => {
  it('registers no exporter, starts once per process, and shuts down cleanly', async () => {
    const telemetry = startTelemetry({ serviceName: 'quiet' });
    expect(() => startTelemetry({ serviceName: 'again' })).toThrow(/already started/);
    const span = trace.getTracer('test').startSpan('unexported');
    expect(span.isRecording()).toBe(false);
    span.end();
    await telemetry.shutdown();
    const restarted = startTelemetry({ serviceName: 'quiet' });
    await restarted.shutdown();
  });
});
