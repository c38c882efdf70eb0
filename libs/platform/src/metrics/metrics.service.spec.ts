import perfHooks from 'node:perf_hooks';
import { METRICS } from './metrics.catalog';
import { EVENT_LOOP_SAMPLE_MS, MetricsService } from './metrics.service';

describe('MetricsService', () => {
  it('creates catalog metrics on first use and returns the same one afterwards', () => {
    const metrics = new MetricsService('relay');
    expect(metrics.counter('relayRequests')).toBe(metrics.counter('relayRequests'));
  });

  it('exposes only the metrics a service recorded, with the service label', async () => {
    const metrics = new MetricsService('relay');
    metrics
      .counter('relayRequests')
      .inc({ protocol: 'openai', model: 'gpt-4o', provider: 'openai', outcome: 'ok' });
    metrics.gauge('relayQueueDepth').set({ channel: '3' }, 2);
    metrics.histogram('relayTimeToFirstToken').observe({ provider: 'anthropic', model: 'claude' }, 0.4);
    const text = await metrics.render();
    const values = async (name: string) => (await metrics.registry.getSingleMetric(name)?.get())?.values;
    expect(await values(METRICS.relayRequests.name)).toEqual([
      { value: 1, labels: { protocol: 'openai', model: 'gpt-4o', provider: 'openai', outcome: 'ok' } },
    ]);
    expect(await values(METRICS.relayQueueDepth.name)).toEqual([{ value: 2, labels: { channel: '3' } }]);
    expect(text).toMatch(/tollgate_relay_queue_depth\{[^}]*service="relay"[^}]*\} 2/);
    expect(text).toMatch(/tollgate_relay_time_to_first_token_seconds_count\{[^}]*model="claude"[^}]*\} 1/);
    expect(text).not.toContain(METRICS.outboxLag.name);
    expect(metrics.contentType).toContain('text/plain');
  });

  it('samples the event loop delay once a second, not every 10 ms', () => {
    const monitor = jest.spyOn(perfHooks, 'monitorEventLoopDelay');
    try {
      new MetricsService('gateway');
      expect(monitor).toHaveBeenCalledWith({ resolution: EVENT_LOOP_SAMPLE_MS });
      expect(EVENT_LOOP_SAMPLE_MS).toBe(1000);
    } finally {
      monitor.mockRestore();
    }
  });

  it('keeps registries of services sharing a process apart', async () => {
    const auth = new MetricsService('auth');
    const billing = new MetricsService('billing');
    auth.counter('refusedReservations').inc({ reason: 'insufficient_quota' });
    expect(await billing.render()).not.toContain(METRICS.refusedReservations.name);
  });

  it('declares every catalog metric with a unique tollgate_ name and label names only', () => {
    const names = Object.values(METRICS).map((metric) => metric.name);
    expect(new Set(names).size).toBe(names.length);
    for (const metric of Object.values(METRICS)) {
      expect(metric.name).toMatch(/^tollgate_[a-z_]+$/);
      for (const label of metric.labels) expect(label).toMatch(/^[a-z_]+$/);
    }
  });
});
