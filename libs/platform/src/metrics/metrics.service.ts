import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import {
  METRICS,
  type MetricDefinition,
  type MetricKey,
  type MetricKeyOfType,
  type MetricLabel,
} from './metrics.catalog';
import { CounterMetric, HistogramMetric } from './metric-series';

type AnyMetric = CounterMetric<string> | Gauge<string> | HistogramMetric<string>;

/**
 * How often the event loop's delay is sampled for nodejs_eventloop_lag_*. prom-client's default, 10 ms,
 * wakes an idle service 100 times a second; 100 ms still made it the gateway's every idle wake-up and
 * ~54 of the six services' wake-ups a second (bench/ANALYSIS.md, H60), six samplers in the embedded
 * process. A scrape every 15 s still reads 15 samples, and a stall delays the pending sample, so stalls
 * longer than a second are all seen; shorter ones in proportion to their length.
 */
export const EVENT_LOOP_SAMPLE_MS = 1000;

/**
 * One registry per service (several share a process in the embedded mode). Metrics come only from the
 * METRICS catalog and are created on first use, so a service exposes just the ones it records.
 * Counters and histograms bind their series once per label combination (`labels(…)`, metric-series.ts);
 * gauges are prom-client's own.
 */
export class MetricsService {
  readonly registry = new Registry();
  private readonly metrics = new Map<MetricKey, AnyMetric>();

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }

  counter<K extends MetricKeyOfType<'counter'>>(key: K): CounterMetric<MetricLabel<K>> {
    return this.metric(
      key,
      (definition) => new CounterMetric(definition.name, definition.help, definition.labels, this.registry),
    ) as CounterMetric<MetricLabel<K>>;
  }

  gauge<K extends MetricKeyOfType<'gauge'>>(key: K): Gauge<MetricLabel<K>> {
    return this.metric(key, (definition) => new Gauge(this.configuration(definition))) as Gauge<
      MetricLabel<K>
    >;
  }

  histogram<K extends MetricKeyOfType<'histogram'>>(key: K): HistogramMetric<MetricLabel<K>> {
    return this.metric(
      key,
      (definition) =>
        new HistogramMetric(definition.name, definition.help, definition.labels, this.registry, [
          ...(definition.buckets ?? []),
        ]),
    ) as HistogramMetric<MetricLabel<K>>;
  }

  /** The exposition text for a scrape. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private metric(key: MetricKey, create: (definition: MetricDefinition) => AnyMetric): AnyMetric {
    let metric = this.metrics.get(key);
    if (!metric) {
      metric = create(METRICS[key]);
      this.metrics.set(key, metric);
    }
    return metric;
  }

  private configuration(definition: MetricDefinition) {
    return {
      name: definition.name,
      help: definition.help,
      labelNames: definition.labels,
      registers: [this.registry],
    };
  }
}
