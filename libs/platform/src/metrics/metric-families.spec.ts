import { MetricsService } from './metrics.service';

/** The series lines of Tollgate's own metrics (process metrics change between two scrapes). */
const tollgateSeries = (text: string) => text.split('\n').filter((line) => line.startsWith('tollgate_'));

function aGatewayAndARelay(): { gateway: MetricsService; relay: MetricsService } {
  const gateway = new MetricsService('gateway');
  const relay = new MetricsService('relay');
  gateway.histogram('httpRequestDuration').observe({ method: 'POST', route: '/v1/*', status: '200' }, 0.02);
  relay
    .histogram('httpRequestDuration')
    .observe({ method: 'POST', route: '/v1/chat/completions', status: '499' }, 9);
  relay.counter('relayRetries').inc({ provider: 'openai', reason: 'upstream_5xx' });
  relay.gauge('channelHealthy').set({ channel: '1', provider: 'openai' }, 0);
  return { gateway, relay };
}

describe("a service's scrape serving other services' metrics too (embedded mode)", () => {
  it("holds every service's series as each one's own scrape writes them, each family once", async () => {
    const { gateway, relay } = aGatewayAndARelay();
    const [gatewayAlone, relayAlone] = await Promise.all([gateway.render(), relay.render()]);
    gateway.serveWith([() => relay.families()]);

    const together = await gateway.render({ everyService: true });

    expect(tollgateSeries(together).sort()).toEqual(
      [...tollgateSeries(gatewayAlone), ...tollgateSeries(relayAlone)].sort(),
    );
    expect(together).toContain(
      'tollgate_http_request_duration_seconds_count{service="relay",method="POST",route="/v1/chat/completions",status="499"} 1',
    );
    expect(together).toContain('tollgate_channel_healthy{channel="1",provider="openai",service="relay"} 0');
    const types = together.split('\n').filter((line) => line.startsWith('# TYPE '));
    expect(new Set(types).size).toBe(types.length);
    expect(types).toContain('# TYPE tollgate_http_request_duration_seconds histogram');
    // A family's series follow its one TYPE line, the gateway's first.
    const family = together
      .split('\n\n')
      .find((block) => block.includes('# TYPE tollgate_http_request_duration_seconds '));
    expect(family).toMatch(/service="gateway"[\s\S]*service="relay"/);
    // A scrape not asking for every service (one a proxy forwarded) gets the gateway's alone.
    expect(tollgateSeries(await gateway.render())).toEqual(tollgateSeries(gatewayAlone));
    // The other service's own scrape is unchanged.
    expect(tollgateSeries(await relay.render())).toEqual(tollgateSeries(relayAlone));
  });

  it('leaves out a source that fails, and still answers with its own series', async () => {
    const { gateway } = aGatewayAndARelay();
    const alone = await gateway.render();
    gateway.serveWith([() => Promise.reject(new Error('worker gone'))]);
    expect(tollgateSeries(await gateway.render({ everyService: true }))).toEqual(tollgateSeries(alone));
  });

  it('finds a service of this thread by its port, and nothing once it is taken back', async () => {
    const { relay } = aGatewayAndARelay();
    const unregister = MetricsService.register(40_001, relay);
    expect(MetricsService.listeningOn(40_001)).toBe(relay);
    const source = MetricsService.familiesOfServiceOn(40_001);
    expect((await source()).map((family) => family.name)).toContain('tollgate_relay_retries_total');
    unregister();
    expect(MetricsService.listeningOn(40_001)).toBeUndefined();
    expect(await source()).toEqual([]);
  });
});
