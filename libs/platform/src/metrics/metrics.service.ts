import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  METRICS,
  type MetricDefinition,
  type MetricKey,
  type MetricKeyOfType,
  type MetricLabel,
} from './metrics.catalog';

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;

/**
 * One registry per service (several share a process in the embedded mode). Metrics come only from the
 * METRICS catalog and are created on first use, so a service exposes just the ones it records.
 */
export class MetricsService {
  readonly registry = new Registry();
  private readonly metrics = new Map<MetricKey, AnyMetric>();

  constructor(service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
  }

  counter<K extends MetricKeyOfType<'counter'>>(key: K): Counter<MetricLabel<K>> {
    return this.metric(key, (definition) => new Counter(this.configuration(definition))) as Counter<
      MetricLabel<K>
    >;
  }

  gauge<K extends MetricKeyOfType<'gauge'>>(key: K): Gauge<MetricLabel<K>> {
    return this.metric(key, (definition) => new Gauge(this.configuration(definition))) as Gauge<
      MetricLabel<K>
    >;
  }

  histogram<K extends MetricKeyOfType<'histogram'>>(key: K): Histogram<MetricLabel<K>> {
    return this.metric(
      key,
      (definition) =>
        new Histogram({ ...this.configuration(definition), buckets: [...(definition.buckets ?? [])] }),
    ) as Histogram<MetricLabel<K>>;
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
