import Anthropic from '@anthropic-ai/sdk';
import { CHANNEL_TYPES, RATE_LIMIT_WINDOW_MS } from '@tollgate/contracts';
import { INFRASTRUCTURES } from '@tollgate/testing';
import OpenAI from 'openai';
import type { RelayWorld } from '../support/relay-world';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** Relay's default: a request's minute starts when its lease is settled in the store. */
const LEASE_MS = 500;

/**
 * A client that bursts into its requests-per-minute limit and waits what the 429 says must not be
 * refused again: the burst's requests count for a whole minute after they end, so that is the wait,
 * not the minute's share of one request (12 s at 5 a minute), after which the openai SDK's two
 * retries were refused too.
 */
describe.each(INFRASTRUCTURES)('Retry-After after a burst on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-retry-after');
  let world: RelayWorld;
  let relay: Relay;
  let gpt: string;
  let claude: string;

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    const upstream = await harness.upstream({ completionTokens: 4 });
    gpt = world.model('gpt');
    claude = world.model('claude');
    relay = await harness.start({ env: { RELAY_QUOTA_LEASE_MS: String(LEASE_MS) } });
    await Promise.all([gpt, claude].map((model) => world.price(model)));
    await world.channel(aChannelOn(upstream, [gpt]));
    await world.channel(aChannelOn(upstream, [claude], { type: CHANNEL_TYPES.anthropic }));
  });

  afterAll(async () => {
    await harness.close();
  });

  it('tells the openai and anthropic SDKs to wait until the first request of the burst is a minute old', async () => {
    const key = await harness.readyKey([relay], 50_000_000, { rpm_limit: 5 });
    const openai = new OpenAI({ apiKey: key.apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });
    for (let i = 0; i < 5; i++)
      await openai.chat.completions.create({ model: gpt, messages: [{ role: 'user', content: 'Hi' }] });

    const refused = await openai.chat.completions
      .create({ model: gpt, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const headers = (refused as InstanceType<typeof OpenAI.RateLimitError>).headers!;
    const waitMs = Number(headers.get('retry-after-ms'));
    // Nothing has freed yet: the first call of the burst ended moments ago and counts for a minute from
    // when its lease was settled. Under a minute, so the SDKs (which ignore 60 s and more) wait it.
    expect(waitMs).toBeGreaterThan(RATE_LIMIT_WINDOW_MS - 20_000);
    expect(waitMs).toBeLessThan(RATE_LIMIT_WINDOW_MS);
    expect(Number(headers.get('retry-after'))).toBe(Math.ceil(waitMs / 1000));
    // The refusal carries OpenAI's headers of the limit too, as OpenAI's own 429 does.
    expect(headers.get('x-ratelimit-limit-requests')).toBe('5');
    expect(headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(\.\d+)?s$|^1m\d+(\.\d+)?s$/);

    const anthropic = new Anthropic({ apiKey: key.apiKey, baseURL: relay.url, maxRetries: 0 });
    const refusedToo = await anthropic.messages
      .create({ model: claude, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refusedToo).toBeInstanceOf(Anthropic.RateLimitError);
    const anthropicWaitMs = Number(
      (refusedToo as InstanceType<typeof Anthropic.RateLimitError>).headers!.get('retry-after-ms'),
    );
    expect(anthropicWaitMs).toBeGreaterThan(RATE_LIMIT_WINDOW_MS - 20_000);
    expect(anthropicWaitMs).toBeLessThanOrEqual(waitMs);
  });
});
