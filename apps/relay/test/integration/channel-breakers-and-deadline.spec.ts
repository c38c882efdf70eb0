import { CHANNEL_BREAKERS_CALL, channelBreakersResult, type CatalogChannel } from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
import { eventually, INFRASTRUCTURES, type FakeUpstream } from '@tollgate/testing';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { sseData } from '../support/sse-text';
import { aChannelOn, aChatRequest as chat } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(60_000);

const HALF_OPEN_MS = 600_000;

/**
 * A primary channel that never answers, with its own stream deadline of 1 s while relay's global one
 * is two minutes: streamed calls reach the fallback after the channel's deadline, the primary's
 * circuit opens, and admin's CHANNEL_BREAKERS_CALL lists it open until its next trial.
 */
describe.each(INFRASTRUCTURES)(
  "a channel's own stream deadline and breaker, on %s infrastructure",
  (kind) => {
    const harness = new RelayHarness(kind, 'relay-channel-breakers', {
      env: {
        RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS: '120000',
        RELAY_BREAKER_FAILURES: '2',
        RELAY_BREAKER_HALF_OPEN_MS: String(HALF_OPEN_MS),
      },
    });
    let hanging: FakeUpstream;
    let healthy: FakeUpstream;
    let world: RelayWorld;
    let relay: Relay;
    let key: TestKey;
    let model: string;
    let primary: CatalogChannel;
    let fallback: CatalogChannel;

    const streamed = () => relay.post('/v1/chat/completions', bearer(key), chat(model, { stream: true }));
    const breakers = async () => {
      const token = await new ServiceTokenSigner(harness.secret, CHANNEL_BREAKERS_CALL.audience).token();
      const res = await fetch(`${relay.url}${CHANNEL_BREAKERS_CALL.path}`, {
        headers: { [SERVICE_TOKEN_HEADER]: token },
      });
      expect(res.status).toBe(200);
      return channelBreakersResult.parse(await res.json()).channels;
    };

    beforeAll(async () => {
      await harness.open();
      world = harness.world;
      hanging = await harness.upstream({ latencyMs: 120_000 });
      healthy = await harness.upstream({ completionTokens: 4, chunks: 2 });
      relay = await harness.start();
      model = world.model('own-deadline');
      await world.price(model);
      const mapping = { model_mapping: { [model]: 'gpt-4o-mini' } };
      primary = await world.channel(
        aChannelOn(hanging, [model], { priority: 10, stream_headers_timeout_seconds: 1, ...mapping }),
      );
      fallback = await world.channel(aChannelOn(healthy, [model], { priority: 0, ...mapping }));
      key = await harness.readyKey([relay]);
      await eventually('both channels in relay', async () =>
        (await relay.holds('channels', primary.id)) && (await relay.holds('channels', fallback.id))
          ? true
          : undefined,
      );
    });

    afterAll(() => harness.close());

    it("answers a streamed call from the fallback once the primary's own deadline has passed", async () => {
      expect(await breakers()).toEqual([]);
      const res = await streamed();
      expect(res.status).toBe(200);
      expect(sseData(await res.text())).toContain('[DONE]');
      expect(hanging.stats().requests).toBe(1);
    }, 30_000);

    it('lists the primary as open until its next trial once its failures opened the circuit, and nobody else', async () => {
      expect((await streamed()).status).toBe(200);
      const opened = Math.floor(Date.now() / 1000);
      const held = await eventually('the primary held out', async () => {
        const channels = await breakers();
        return channels.length > 0 ? channels : undefined;
      });
      expect(held).toEqual([{ id: primary.id, state: 'open', next_trial_at: expect.any(Number) }]);
      expect(held[0]!.next_trial_at).toBeGreaterThanOrEqual(opened - 5 + HALF_OPEN_MS / 1000);
      expect(held[0]!.next_trial_at).toBeLessThanOrEqual(opened + 1 + HALF_OPEN_MS / 1000);

      const stranger = await fetch(`${relay.url}${CHANNEL_BREAKERS_CALL.path}`);
      expect(stranger.status).toBe(401);
    }, 30_000);
  },
);
