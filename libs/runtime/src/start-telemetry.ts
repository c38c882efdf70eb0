import { context, metrics as metricsApi, propagation, trace } from '@opentelemetry/api';
import type { metrics, tracing } from '@opentelemetry/sdk-node';
import { setTracingEnabled } from '@tollgate/platform';

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP base URL (http://collector:4318); without it nothing is exported anywhere. */
  otlpEndpoint?: string;
  /** Replace the OTLP exporters (another backend, or an in-memory one in tests). */
  spanExporter?: tracing.SpanExporter;
  metricExporter?: metrics.PushMetricExporter;
  metricExportIntervalMs?: number;
}

export interface Telemetry {
  /** Whether spans go anywhere; without an exporter the per-request tracing hook is pointless work. */
  readonly tracing: boolean;
  /** Flushes what is buffered, then unregisters the providers. */
  shutdown(): Promise<void>;
}

let started = false;

/**
 * Starts OpenTelemetry for the process when it exports somewhere: W3C trace propagation and OTLP/HTTP
 * export of traces and metrics. Every component is passed explicitly, so the SDK never falls back to its
 * environment defaults (which would export to localhost and complain when nothing listens). Spans come
 * from the platform's HTTP hook and carry only method, route template and status: never bodies.
 * Without an endpoint or exporter the SDK is not even loaded (about a thousand modules and a third of
 * a service's start-up CPU): nothing would record a span, so nothing would propagate one.
 * Call once per process, before the apps start; the embedded mode's services share it.
 */
export const startTelemetry = async ({
  serviceName,
  otlpEndpoint,
  spanExporter,
  metricExporter,
  metricExportIntervalMs = 60_000,
}: TelemetryOptions): Promise<Telemetry> => {
  if (started) throw new Error('Telemetry is already started in this process; start it once and share it');
  started = true;
  const base = otlpEndpoint?.replace(/\/+$/, '');
  if (base === undefined && spanExporter === undefined && metricExporter === undefined) {
    setTracingEnabled(false);
    return {
      tracing: false,
      shutdown: async () => {
        started = false;
      },
    };
  }
  try {
    const { NodeSDK, metrics, tracing } = await import('@opentelemetry/sdk-node');
    const spans =
      spanExporter ??
      (base
        ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({
            url: `${base}/v1/traces`,
          })
        : undefined);
    const measurements =
      metricExporter ??
      (base
        ? new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter({
            url: `${base}/v1/metrics`,
          })
        : undefined);
    const sdk = new NodeSDK({
      serviceName,
      autoDetectResources: base !== undefined,
      instrumentations: [],
      spanProcessors: spans ? [new tracing.BatchSpanProcessor(spans)] : [],
      metricReaders: measurements
        ? [
            new metrics.PeriodicExportingMetricReader({
              exporter: measurements,
              exportIntervalMillis: metricExportIntervalMs,
            }),
          ]
        : [],
      logRecordProcessors: [],
    });
    sdk.start();
    setTracingEnabled(spans !== undefined);
    return {
      tracing: spans !== undefined,
      shutdown: async () => {
        try {
          await sdk.shutdown();
        } finally {
          trace.disable();
          metricsApi.disable();
          propagation.disable();
          context.disable();
          started = false;
          setTracingEnabled(false);
        }
      },
    };
  } catch (error) {
    started = false;
    throw error;
  }
};
