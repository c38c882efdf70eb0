import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import {
  METRICS,
  type MetricDefinition,
  type MetricKey,
  type MetricKeyOfType,
  type MetricLabel,
} from './metrics.catalog';
import { CounterMetric, HistogramMetric } from './metric-series';
import { renderFamilies, type MetricFamiliesSource, type MetricFamily } from './metric-families';

type AnyMetric = CounterMetric<string> | Gauge<string> | HistogramMetric<string>;

/**
 * How often the event loop's delay is sampled for nodejs_eventloop_lag_*. prom-client's default, 10 ms,
 * wakes an idle service 100 times a second; 100 ms still made it the gateway's every idle wake-up and
 * ~54 of the six services' wake-ups a second (bench/ANALYSIS.md, H60), six samplers in the embedded
 * process. A scrape every 15 s still reads 15 samples, and a stall delays the pending sample, so stalls
 * longer than a second are all seen; shorter ones in proportion to their length.
 */
export const EVENT_LOOP_SAMPLE_MS = 1000;

/** What prom-client's registry reads from a metric to render it (metric-series.ts gives the first). */
interface RenderableMetric {
  getForPromString?(): Promise<MetricFamily>;
  get(): Promise<MetricFamily>;
}
const renderedFamily = (metric: RenderableMetric): Promise<MetricFamily> =>
  metric.getForPromString ? metric.getForPromString() : metric.get();

/** The services of this thread by the port they listen on (their configuration's PORT). */
const listening = new Map<number, MetricsService>();

/**
 * One registry per service (several share a process in the embedded mode). Metrics come only from the
 * METRICS catalog and are created on first use, so a service exposes just the ones it records.
 * Counters and histograms bind their series once per label combination (`labels(…)`, metric-series.ts);
 * gauges are prom-client's own.
 */
export class MetricsService {
  readonly registry = new Registry();
  private readonly metrics = new Map<MetricKey, AnyMetric>();
  private readonly defaultLabels: Record<string, string>;
  private servedWith: readonly MetricFamiliesSource[] = [];

  /** The metrics of the service of this thread that listens on `port`, if one does. */
  static listeningOn(port: number): MetricsService | undefined {
    return listening.get(port);
  }

  /** Files `metrics` as the service listening on `port` in this thread; the returned function takes it back. */
  static register(port: number, metrics: MetricsService): () => void {
    listening.set(port, metrics);
    return () => {
      if (listening.get(port) === metrics) listening.delete(port);
    };
  }

  /** The families of the service of this thread on `port`, read at each scrape (none while none listens). */
  static familiesOfServiceOn(port: number): MetricFamiliesSource {
    return () => listening.get(port)?.families() ?? Promise.resolve([]);
  }

  constructor(service: string) {
    this.defaultLabels = { service };
    this.registry.setDefaultLabels(this.defaultLabels);
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

  /**
   * Embedded mode: this service's scrape also serves the series of the other services of the platform
   * (`sources`), in one exposition, each series with its own `service` label. A source that fails is
   * left out of that scrape.
   */
  serveWith(sources: readonly MetricFamiliesSource[]): void {
    this.servedWith = sources;
  }

  /** The exposition text for a scrape; the other services' series too when `everyService` (see serveWith). */
  async render({ everyService = false }: { everyService?: boolean } = {}): Promise<string> {
    if (!everyService || this.servedWith.length === 0) return this.registry.metrics();
    const others = await Promise.all(this.servedWith.map((source) => source().catch(() => [])));
    return renderFamilies([await this.families(), ...others]);
  }

  /** This service's families as its own scrape writes them, its `service` label in each series. */
  async families(): Promise<MetricFamily[]> {
    const defaults = this.defaultLabels;
    return Promise.all(
      this.registry.getMetricsAsArray().map(async (metric) => {
        const family = await renderedFamily(metric as unknown as RenderableMetric);
        return {
          name: family.name,
          help: family.help,
          type: family.type,
          // As the registry renders them: a value's own labels first, the service's after unless it has them.
          values: family.values.map(({ labels = {}, sharedLabels, value, metricName }) => ({
            labels: { ...labels, ...defaults, ...labels },
            ...(sharedLabels ? { sharedLabels } : {}),
            value,
            ...(metricName ? { metricName } : {}),
          })),
        };
      }),
    );
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
