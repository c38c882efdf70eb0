import { context, metrics as metricsApi, propagation, trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK, metrics, tracing } from '@opentelemetry/sdk-node';
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
 * Starts OpenTelemetry for the process: W3C trace propagation always, and OTLP/HTTP export of traces and
 * metrics only when an endpoint is given. Every component is passed explicitly, so the SDK never falls back
 * to its environment defaults (which would export to localhost and complain when nothing listens). Spans
 * come from the platform's HTTP hook and carry only method, route template and status: never bodies.
 * Call once per process, before the apps start; the embedded mode's services share it.
 */
export const startTelemetry = ({
  serviceName,
  otlpEndpoint,
  spanExporter,
  metricExporter,
  metricExportIntervalMs = 60_000,
}: TelemetryOptions): Telemetry => {
  if (started) throw new Error('Telemetry is already started in this process; start it once and share it');
  const base = otlpEndpoint?.replace(/\/+$/, '');
  const spans = spanExporter ?? (base ? new OTLPTraceExporter({ url: `${base}/v1/traces` }) : undefined);
  const measurements =
    metricExporter ?? (base ? new OTLPMetricExporter({ url: `${base}/v1/metrics` }) : undefined);
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
  started = true;
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
};
