import OpenAI from 'openai';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES } from '@tollgate/testing';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** Relay's default answer length (RELAY_DEFAULT_MAX_OUTPUT_TOKENS): a call naming none reserves this. */
const DEFAULT_ANSWER_TOKENS = 4_096;
/**
 * A balance that pays for the default answer (about 1,230 quota units at $0.60 per 1M output tokens)
 * but not for twice it, nor for 64 such calls: tight.
 */
const TIGHT_BALANCE = 2_000;

/**
 * An upstream that, asked for no limit, answers far longer than relay's default (the fake writes up to
 * 20,000 tokens, as a model with a large output limit may): relay must hold it to what the balance was
 * checked for, or refuse, with the official OpenAI SDK as the client.
 */
describe.each(INFRASTRUCTURES)(
  'what relay lets the upstream generate on a tight balance, on %s infrastructure',
  (kind) => {
    const harness = new RelayHarness(kind, 'relay-reserved-output', { recordUsage: true });
    let relay: Relay;
    let gpt = '';
    let claude = '';
    const openai = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });

    beforeAll(async () => {
      await harness.open();
      const { world } = harness;
      const upstream = await harness.upstream({ completionTokens: 20_000, chunks: 4 });
      relay = await harness.start();
      gpt = world.model('gpt');
      claude = world.model('claude');
      await world.price(gpt);
      await world.price(claude);
      await world.channel(aChannelOn(upstream, [gpt], { model_mapping: { [gpt]: 'gpt-4o' } }));
      await world.channel(
        aChannelOn(upstream, [claude], {
          type: CHANNEL_TYPES.anthropic,
          model_mapping: { [claude]: 'claude-sonnet-4-5' },
        }),
      );
      const probe = await harness.readyKey([relay]);
      await eventually(`relay to serve ${gpt} and ${claude}`, async () => {
        const res = await fetch(`${relay.url}/v1/models`, {
          headers: { authorization: `Bearer ${probe.apiKey}` },
        });
        const listed = ((await res.json()) as { data: { id: string }[] }).data.map((model) => model.id);
        return listed.includes(gpt) && listed.includes(claude) ? true : undefined;
      });
    });

    afterAll(() => harness.close());

    it.each([false, true])(
      'holds an OpenAI channel to the reserved answer when the client names no limit (stream: %s), and charges within the balance',
      async (stream) => {
        const key = await harness.readyKey([relay], TIGHT_BALANCE);
        const client = openai(key.apiKey);
        const messages: OpenAI.ChatCompletionMessageParam[] = [
          { role: 'user', content: 'Tell a long story' },
        ];
        let completionTokens: number;
        if (stream) {
          const chunks = await client.chat.completions.create({
            model: gpt,
            messages,
            stream: true,
            stream_options: { include_usage: true },
          });
          let last: OpenAI.CompletionUsage | null | undefined;
          for await (const chunk of chunks) last = chunk.usage ?? last;
          completionTokens = last!.completion_tokens;
        } else {
          const answer = await client.chat.completions.create({ model: gpt, messages });
          completionTokens = answer.usage!.completion_tokens;
          expect(answer.choices[0]!.finish_reason).toBe('length');
        }
        expect(completionTokens).toBe(DEFAULT_ANSWER_TOKENS);
        const [event] = await harness.usageEvents(key.userId);
        expect(event!.quota).toBeGreaterThan(0);
        expect(event!.quota).toBeLessThanOrEqual(TIGHT_BALANCE);
      },
    );

    it('refuses with 402 a reasoning_effort call naming no limit on an Anthropic channel when the balance cannot pay for its thinking and the default answer', async () => {
      const key = await harness.readyKey([relay], TIGHT_BALANCE);
      const refused = openai(key.apiKey).chat.completions.create({
        model: claude,
        messages: [{ role: 'user', content: 'Think hard, then tell a long story' }],
        reasoning_effort: 'high',
      });
      await expect(refused).rejects.toMatchObject({ status: 402 });
      await expect(refused).rejects.toThrow(/can only afford/);
    });

    it('serves that call when the balance pays for the thinking and the default answer, charging no more than the balance', async () => {
      const balance = 3 * TIGHT_BALANCE;
      const key = await harness.readyKey([relay], balance);
      const answer = await openai(key.apiKey).chat.completions.create({
        model: claude,
        messages: [{ role: 'user', content: 'Think hard, then tell a long story' }],
        reasoning_effort: 'high',
      });
      // Sent max_tokens = the budget (4,096 for high) + the default answer, all of it reserved. The fake
      // counts its few thinking tokens on top of max_tokens (Anthropic counts them within it).
      expect(answer.usage!.completion_tokens).toBeGreaterThan(DEFAULT_ANSWER_TOKENS);
      const [event] = await harness.usageEvents(key.userId);
      expect(event!.quota).toBeLessThanOrEqual(balance);
    });
  },
);
