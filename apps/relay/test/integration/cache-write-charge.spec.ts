import Anthropic from '@anthropic-ai/sdk';
import { CHANNEL_TYPES, priceKey, TOPICS } from '@tollgate/contracts';
import { aPriceWithCacheWrites, eventually, INFRASTRUCTURES } from '@tollgate/testing';
import { userAccount } from '../../src/quota/quota-reservations';
import type { TestKey } from '../support/relay-world';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** A text long enough for Anthropic to cache (1024 tokens and more), unique to `name`. */
function referenceText(name: string): string {
  return Array.from({ length: 600 }, (_, line) => `reference ${name} line ${line}`).join('\n');
}

interface ToldUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
}

/**
 * What Claude Sonnet 4.5's list prices charge for the usage Anthropic told, worked out here apart
 * from the charge formula, in quota units (500 000 a dollar, so a token at $p per 1M costs p/2 units):
 * input $3, cache reads $0.30, 5-minute writes $3.75, 1-hour writes $6, output $15; rounded up once.
 */
function sonnetCharge(usage: ToldUsage): number {
  const hour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  const fiveMinutes = (usage.cache_creation_input_tokens ?? 0) - hour;
  const centsPerMillion =
    usage.input_tokens * 300 +
    (usage.cache_read_input_tokens ?? 0) * 30 +
    fiveMinutes * 375 +
    hour * 600 +
    usage.output_tokens * 1500;
  return Math.ceil(centsPerMillion / 200);
}

/**
 * Prompt-cache writes on an Anthropic channel are charged at the model's write prices (1.25× input
 * for 5 minutes, 2× for an hour), by relay's charge and in the usage event billing settles; the
 * fake upstream tells the writes and their split as Anthropic does.
 */
describe.each(INFRASTRUCTURES)(
  'prompt-cache writes charged on an Anthropic channel on %s infrastructure',
  (kind) => {
    const harness = new RelayHarness(kind, 'relay-cache-write-charge', { recordUsage: true });
    let relay: Relay;
    let claude = '';
    let key: TestKey;
    const anthropic = () => new Anthropic({ apiKey: key.apiKey, baseURL: relay.url, maxRetries: 0 });
    const cachedSystem = (name: string): Anthropic.TextBlockParam[] => [
      { type: 'text', text: referenceText(`${name}-hour`), cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: referenceText(`${name}-minutes`), cache_control: { type: 'ephemeral' } },
    ];

    beforeAll(async () => {
      await harness.open();
      const { world } = harness;
      const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
      relay = await harness.start({ env: { RELAY_QUOTA_HOLD_MS: '60000' } });
      claude = world.model('claude');
      const price = aPriceWithCacheWrites({ model: claude });
      await harness.bus.publish([
        { topic: TOPICS.billingPrice.name, key: priceKey.model(claude), value: price },
      ]);
      await world.channel(
        aChannelOn(upstream, [claude], {
          type: CHANNEL_TYPES.anthropic,
          model_mapping: { [claude]: 'claude-sonnet-4-5' },
        }),
      );
      key = await harness.readyKey([relay], 500_000_000);
      await eventually(`relay to serve ${claude}`, async () => {
        const res = await fetch(`${relay.url}/v1/models`, {
          headers: { authorization: `Bearer ${key.apiKey}` },
        });
        const listed = ((await res.json()) as { data: { id: string }[] }).data.map((model) => model.id);
        return listed.includes(claude) ? true : undefined;
      });
    });

    afterAll(() => harness.close());

    it('charges a call that writes the cache at the write prices, and the held balance falls by that integer', async () => {
      const system = cachedSystem('plain');
      const request = {
        model: claude,
        max_tokens: 64,
        system,
        messages: [{ role: 'user' as const, content: 'Hi' }],
      };
      const writing = await anthropic().messages.create(request);
      const reading = await anthropic().messages.create(request);
      const streamed = await anthropic()
        .messages.stream({ ...request, system: cachedSystem('streamed') })
        .finalMessage();

      const told = [writing.usage, reading.usage, streamed.usage] as ToldUsage[];
      expect(told[0]!.cache_creation!.ephemeral_1h_input_tokens).toBeGreaterThan(1000);
      expect(told[0]!.cache_creation!.ephemeral_5m_input_tokens).toBeGreaterThan(1000);
      expect(told[1]).toMatchObject({ cache_creation_input_tokens: 0 });
      expect(told[1]!.cache_read_input_tokens).toBeGreaterThan(2000);
      expect(told[2]!.cache_creation!.ephemeral_1h_input_tokens).toBeGreaterThan(1000);

      const events = await harness.usageEvents(key.userId, 3);
      const byResponse = (id: string) => events.find((event) => event.response_id === id)!;
      const [first, second, third] = [writing.id, reading.id, streamed.id].map(byResponse);
      expect(first).toMatchObject({
        cache_write_tokens: told[0]!.cache_creation_input_tokens,
        cache_write_1h_tokens: told[0]!.cache_creation!.ephemeral_1h_input_tokens,
        price: { input: '3', cache_write: '3.75', cache_write_1h: '6' },
      });
      expect(second).not.toHaveProperty('cache_write_tokens');
      expect(third).toMatchObject({
        cache_write_1h_tokens: told[2]!.cache_creation!.ephemeral_1h_input_tokens,
      });
      expect([first, second, third].map((event) => event!.quota)).toEqual(told.map(sonnetCharge));
      // At the input price (before writes were priced) the first call came to much less.
      const atInputPrice = sonnetCharge({
        ...told[0]!,
        input_tokens: told[0]!.input_tokens + told[0]!.cache_creation_input_tokens!,
        cache_creation_input_tokens: 0,
        cache_creation: null,
      });
      expect(first!.quota).toBeGreaterThan(atInputPrice);

      const charged = told.map(sonnetCharge).reduce((sum, quota) => sum + quota, 0);
      await eventually('the leases to be handed back as holds of the charges', async () =>
        (await harness.infra.runtime.kv.outstanding(userAccount(key.userId))) === charged ? true : undefined,
      );
    });
  },
);
