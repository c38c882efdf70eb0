import { Registry, type Metric } from 'prom-client';

/** One value of a family as the exposition writes it: its labels (the service's among them) and value. */
export interface MetricFamilyValue {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A metric's series as one service's registry renders them, plain data that can cross to another
 * thread. The same family from several services (each series with its own `service` label) is
 * rendered as one family: one HELP and TYPE, then every service's series.
 */
export interface MetricFamily {
  name: string;
  help: string;
  type: string;
  values: MetricFamilyValue[];
}

/** Where a scrape reads some service's families from: its registry in this thread, or another thread. */
export type MetricFamiliesSource = () => Promise<MetricFamily[]>;

/** What prom-client's registry renders, given to it as a metric of its own. */
interface RenderedFamily extends MetricFamily {
  get(): Promise<MetricFamily>;
}

/**
 * The exposition of several services' families, each family once (in the order first met) holding
 * every service's series, each line as the service's own /metrics writes it.
 */
export function renderFamilies(
  sources: readonly MetricFamily[][],
  registry = new Registry(),
): Promise<string> {
  const families = new Map<string, MetricFamily>();
  for (const source of sources) {
    for (const family of source) {
      const known = families.get(family.name);
      if (known === undefined) families.set(family.name, { ...family, values: [...family.values] });
      else known.values.push(...family.values);
    }
  }
  for (const family of families.values()) {
    const rendered: RenderedFamily = { ...family, get: () => Promise.resolve(family) };
    registry.registerMetric(rendered as unknown as Metric);
  }
  return registry.metrics();
}
