import { METRICS, MetricsService } from '@tollgate/platform';
import { aChannel } from '../../test/support/fixtures';
import { RelayMetrics } from './relay-metrics';

describe('RelayMetrics', () => {
  it("drops a deleted channel's health series, leaving the others", async () => {
    const service = new MetricsService('relay');
    const metrics = new RelayMetrics(service);
    metrics.health(aChannel({ id: 3 }), 'openai', false);
    metrics.health(aChannel({ id: 4 }), 'anthropic', false);
    metrics.forget(aChannel({ id: 3 }), 'openai');
    const values = (await service.registry.getSingleMetric(METRICS.channelHealthy.name)?.get())?.values;
    expect(values).toEqual([{ value: 0, labels: { channel: '4', provider: 'anthropic' } }]);
  });

  it('observes queue waits by channel and outcome', async () => {
    const service = new MetricsService('relay');
    new RelayMetrics(service).queueWait(5, 1.5, 'timeout');
    expect(await service.render()).toMatch(
      /tollgate_relay_queue_wait_seconds_count\{[^}]*channel="5"[^}]*outcome="timeout"[^}]*\} 1/,
    );
  });
});
