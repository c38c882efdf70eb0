import { Counter, Histogram, Registry } from 'prom-client';
import { CounterMetric, HistogramMetric } from './metric-series';

const BUCKETS = [0.005, 0.01, 0.25, 1, 10];

/** A prom-client registry and one of ours, with the same default label, as MetricsService sets it. */
const registries = () => {
  const theirs = new Registry();
  const ours = new Registry();
  for (const registry of [theirs, ours]) registry.setDefaultLabels({ service: 'relay' });
  return { theirs, ours };
};

describe('metric series', () => {
  it('renders a histogram exactly as prom-client does, whether observed bound or by labels', async () => {
    const { theirs, ours } = registries();
    const labelNames = ['provider', 'channel', 'model'] as const;
    const reference = new Histogram({
      name: 'x_seconds',
      help: 'help with "quotes" and \\ backslash',
      labelNames,
      buckets: BUCKETS,
      registers: [theirs],
    });
    const histogram = new HistogramMetric(
      'x_seconds',
      'help with "quotes" and \\ backslash',
      labelNames,
      ours,
      BUCKETS,
    );
    const bound = histogram.labels({ provider: 'openai', channel: '3', model: 'gpt-4o' });
    const observations: [Record<string, string>, number][] = [
      [{ provider: 'openai', channel: '3', model: 'gpt-4o' }, 0.003],
      [{ model: 'claude "3"\nx', provider: 'anthropic', channel: '4' }, 0.01],
      [{ provider: 'openai', channel: '3', model: 'gpt-4o' }, 0.1 + 0.2],
      [{ provider: 'openai', channel: '3', model: 'gpt-4o' }, 120],
      [{ provider: 'openai', model: 'no-channel' }, 10],
      [{ model: 'claude "3"\nx', provider: 'anthropic', channel: '4' }, 0],
    ];
    for (const [labels, value] of observations) {
      reference.observe(labels, value);
      if (labels.model === 'gpt-4o') bound.observe(value);
      else histogram.observe(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(await ours.getSingleMetric('x_seconds')?.get()).toEqual(await reference.get());
  });

  it('renders a counter exactly as prom-client does, whether incremented bound or by labels', async () => {
    const { theirs, ours } = registries();
    const labelNames = ['protocol', 'outcome'] as const;
    const reference = new Counter({ name: 'calls_total', help: 'calls', labelNames, registers: [theirs] });
    const counter = new CounterMetric('calls_total', 'calls', labelNames, ours);
    const bound = counter.labels({ protocol: 'openai', outcome: 'success' });
    for (const [labels, value] of [
      [{ protocol: 'anthropic', outcome: 'success' }, undefined],
      [{ protocol: 'openai', outcome: 'success' }, undefined],
      [{ protocol: 'openai', outcome: 'success' }, 5],
      [{ outcome: 'upstream_error', protocol: 'gemini' }, 0],
      [{ protocol: 'anthropic', outcome: 'success' }, 2.5],
    ] as const) {
      reference.inc(labels, value);
      if (labels.protocol === 'openai') bound.inc(value);
      else counter.inc(labels, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('renders metrics without labels as prom-client does, before and after a record', async () => {
    const { theirs, ours } = registries();
    const counter = new Counter({ name: 'c_total', help: 'c', registers: [theirs] });
    const histogram = new Histogram({ name: 'h', help: 'h', buckets: BUCKETS, registers: [theirs] });
    const ourCounter = new CounterMetric('c_total', 'c', [], ours);
    const ourHistogram = new HistogramMetric('h', 'h', [], ours, BUCKETS);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    counter.inc();
    histogram.observe(0.5);
    ourCounter.inc({});
    ourHistogram.observe({}, 0.5);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('keeps one series per label combination, whatever the order of the labels', () => {
    const counter = new CounterMetric('k_total', 'k', ['a', 'b'], new Registry());
    expect(counter.labels({ a: '1', b: '2' })).toBe(counter.labels({ b: '2', a: '1' }));
    expect(counter.labels({ a: '1' })).not.toBe(counter.labels({ a: '1', b: '' }));
    expect(counter.labels({ a: 3 })).toBe(counter.labels({ a: '3' }));
  });

  it('empties series on reset and shows a bound series again once it records', async () => {
    const { theirs, ours } = registries();
    const reference = new Histogram({
      name: 'r',
      help: 'r',
      labelNames: ['a'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const histogram = new HistogramMetric('r', 'r', ['a'], ours, BUCKETS);
    const bound = histogram.labels({ a: 'x' });
    bound.observe(1);
    reference.observe({ a: 'x' }, 1);
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    bound.observe(2);
    reference.observe({ a: 'x' }, 2);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuses what prom-client refuses: unknown labels, counting down, values that are not numbers', () => {
    const registry = new Registry();
    const counter = new CounterMetric('e_total', 'e', ['a'], registry);
    const histogram = new HistogramMetric('e_seconds', 'e', ['a'], registry, BUCKETS);
    expect(() => counter.inc({ b: 'x' } as never)).toThrow(/not included in initial labelset/);
    expect(() => counter.inc({ a: 'x' }, -1)).toThrow(/not possible to decrease/);
    expect(() => counter.labels({ a: 'x' }).inc(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => histogram.observe({ a: 'x' }, Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(() => new CounterMetric('e_total', 'again', [], registry)).toThrow(/already been registered/);
  });
});
