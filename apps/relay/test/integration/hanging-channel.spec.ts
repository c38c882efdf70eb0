import { eventually, INFRASTRUCTURES, type FakeUpstream } from '@tollgate/testing';
import type { CatalogChannel } from '@tollgate/contracts';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { sseData } from '../support/sse-text';
import { aChannelOn, aChatRequest as chat } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/**
 * A primary channel that accepts calls and never answers (the operator's night of H102, where it
 * took every call for two minutes), with a healthy fallback: streamed calls get their answer from the
 * fallback once the primary's first byte is overdue, the primary's circuit opens after the threshold,
 * and then even plain calls, which would wait minutes for it, go straight to the fallback.
 */
describe.each(INFRASTRUCTURES)('a channel that hangs, on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-hanging-channel', {
    env: {
      // Small, so the spec does not wait; the default is 30 s.
      RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS: '300',
      RELAY_BREAKER_FAILURES: '2',
      RELAY_BREAKER_HALF_OPEN_MS: '600000',
    },
  });
  let hanging: FakeUpstream;
  let healthy: FakeUpstream;
  let world: RelayWorld;
  let relay: Relay;
  let key: TestKey;
  let model: string;
  let primary: CatalogChannel;
  /** A second pair, for clients that give up before the deadline. */
  let impatientModel: string;
  let impatientPrimary: CatalogChannel;
  let hangingToo: FakeUpstream;

  const streamed = () => relay.post('/v1/chat/completions', bearer(key), chat(model, { stream: true }));
  const plain = () => relay.post('/v1/chat/completions', bearer(key), chat(model));
  const metricLines = async (name: string, channel: CatalogChannel) =>
    (await (await fetch(`${relay.url}/metrics`)).text())
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) && line.includes(`channel="${channel.id}"`));

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    hanging = await harness.upstream({ latencyMs: 120_000 });
    healthy = await harness.upstream({ completionTokens: 4, chunks: 2 });
    relay = await harness.start();
    model = world.model('hang');
    await world.price(model);
    const mapping = { model_mapping: { [model]: 'gpt-4o-mini' } };
    primary = await world.channel(aChannelOn(hanging, [model], { priority: 10, ...mapping }));
    const fallback = await world.channel(aChannelOn(healthy, [model], { priority: 0, ...mapping }));
    hangingToo = await harness.upstream({ latencyMs: 120_000 });
    impatientModel = world.model('impatient');
    await world.price(impatientModel);
    const impatientMapping = { model_mapping: { [impatientModel]: 'gpt-4o-mini' } };
    impatientPrimary = await world.channel(
      aChannelOn(hangingToo, [impatientModel], { priority: 10, ...impatientMapping }),
    );
    await world.channel(aChannelOn(healthy, [impatientModel], { priority: 0, ...impatientMapping }));
    key = await harness.readyKey([relay]);
    await eventually('both channels in relay', async () =>
      (await relay.holds('channels', primary.id)) &&
      (await relay.holds('channels', fallback.id)) &&
      (await relay.holds('channels', impatientPrimary.id))
        ? true
        : undefined,
    );
  });

  afterAll(() => harness.close());

  it('answers a streamed call from the fallback once the primary’s first byte is overdue', async () => {
    const res = await streamed();
    expect(res.status).toBe(200);
    expect(sseData(await res.text())).toContain('[DONE]');
    expect(hanging.stats().requests).toBe(1);
    expect(healthy.stats().streamsCompleted).toBe(1);
  });

  it('opens the primary’s circuit after the threshold, and then sends plain calls to the fallback', async () => {
    expect((await streamed()).status).toBe(200);
    expect(hanging.stats().requests).toBe(2);
    await eventually('the primary reported unhealthy', async () =>
      (await metricLines('tollgate_channel_healthy', primary)).some((line) => line.endsWith(' 0'))
        ? true
        : undefined,
    );

    const res = await plain();
    expect(res.status).toBe(200);
    expect(hanging.stats().requests).toBe(2);
    expect(await metricLines('tollgate_relay_upstream_attempts_total', primary)).toEqual([
      expect.stringMatching(/outcome="timeout_first_byte"[^}]*\} 2$/),
    ]);
  });

  it('opens the circuit of a channel that hangs even when every client gives up before the deadline', async () => {
    for (let i = 0; i < 2; i++) {
      const client = new AbortController();
      const call = fetch(`${relay.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(key) },
        body: JSON.stringify(chat(impatientModel, { stream: true })),
        signal: client.signal,
      });
      await eventually('the hanging upstream to get the call', async () =>
        hangingToo.stats().requests === i + 1 ? true : undefined,
      );
      client.abort();
      await expect(call).rejects.toThrow();
    }
    await eventually('the primary reported unhealthy', async () =>
      (await metricLines('tollgate_channel_healthy', impatientPrimary)).some((line) => line.endsWith(' 0'))
        ? true
        : undefined,
    );

    const res = await relay.post('/v1/chat/completions', bearer(key), chat(impatientModel));
    expect(res.status).toBe(200);
    expect(hangingToo.stats().requests).toBe(2);
    expect(await metricLines('tollgate_relay_upstream_attempts_total', impatientPrimary)).toEqual([
      expect.stringMatching(/outcome="timeout_first_byte"[^}]*\} 2$/),
    ]);
  });
});
