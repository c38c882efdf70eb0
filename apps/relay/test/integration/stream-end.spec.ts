import { CHANNEL_TYPES } from '@tollgate/contracts';
import { INFRASTRUCTURES } from '@tollgate/testing';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { sseData, sseEventNames } from '../support/sse-text';
import { aChannelOn, aChatRequest as chat, costOf } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

const COMPLETION_TOKENS = 8;

/**
 * An upstream that sends its whole stream (finish reason, usage, `[DONE]` / `message_stop` /
 * `response.completed`) and then breaks the connection: the answer is complete, so the call is a
 * success, charged, and the client's stream ends as a complete one. A stream broken before its
 * finish reason stays an upstream error, charged nothing.
 */
describe.each(INFRASTRUCTURES)(
  'relay streams whose upstream broke at the end on %s infrastructure',
  (kind) => {
    const harness = new RelayHarness(kind, 'relay-stream-end', { recordUsage: true });
    let world: RelayWorld;
    let relay: Relay;
    let gpt: string;
    let claude: string;
    let gptCut: string;
    let claudeCut: string;

    const post = (path: string, key: TestKey, body: unknown, headers: Record<string, string> = {}) =>
      relay.post(path, { ...bearer(key), ...headers }, body);
    const onlyEvent = async (key: TestKey) => {
      const [event, ...more] = await harness.usageEvents(key.userId);
      expect(more).toEqual([]);
      return event!;
    };

    beforeAll(async () => {
      await harness.open();
      world = harness.world;
      const breaking = await harness.upstream({
        completionTokens: COMPLETION_TOKENS,
        chunks: 4,
        breakAfterEnd: true,
      });
      const cutting = await harness.upstream({
        completionTokens: COMPLETION_TOKENS,
        chunks: 4,
        dropAfter: 2,
      });
      gpt = world.model('gpt');
      claude = world.model('claude');
      gptCut = world.model('gpt-cut');
      claudeCut = world.model('claude-cut');
      relay = await harness.start();
      await Promise.all([gpt, claude, gptCut, claudeCut].map((model) => world.price(model)));
      await world.channel(aChannelOn(breaking, [gpt], { model_mapping: { [gpt]: 'gpt-4o-mini' } }));
      await world.channel(aChannelOn(cutting, [gptCut], { model_mapping: { [gptCut]: 'gpt-4o-mini' } }));
      const anthropic = { type: CHANNEL_TYPES.anthropic };
      await world.channel(
        aChannelOn(breaking, [claude], { ...anthropic, model_mapping: { [claude]: 'claude-haiku-5-5' } }),
      );
      await world.channel(
        aChannelOn(cutting, [claudeCut], {
          ...anthropic,
          model_mapping: { [claudeCut]: 'claude-haiku-5-5' },
        }),
      );
    });

    afterAll(() => harness.close());

    it('charges an OpenAI chat stream broken after [DONE], and ends it with the usage chunk and its cost', async () => {
      const key = await harness.readyKey([relay]);
      const res = await post(
        '/v1/chat/completions',
        key,
        chat(gpt, { stream: true, stream_options: { include_usage: true } }),
      );
      expect(res.status).toBe(200);
      const data = sseData(await res.text());
      expect(data.at(-1)).toBe('[DONE]');
      const usageChunk = JSON.parse(data.at(-2)!) as { choices: unknown[]; usage: { cost_quota: number } };
      expect(usageChunk.choices).toEqual([]);
      expect(data.some((d) => d.includes('"error"'))).toBe(false);

      const event = await onlyEvent(key);
      expect(event).toMatchObject({
        status: 'success',
        completion_tokens: COMPLETION_TOKENS,
        finish_reason: 'stop',
      });
      expect(event.quota).toBeGreaterThan(0);
      expect(event.quota).toBe(costOf(event));
      expect(usageChunk.usage.cost_quota).toBe(event.quota);
    });

    it('charges an Anthropic messages stream broken after message_stop, and ends it with message_stop', async () => {
      const key = await harness.readyKey([relay]);
      const res = await post(
        '/v1/messages',
        key,
        { model: claude, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Hello there' }] },
        { 'anthropic-version': '2023-06-01' },
      );
      expect(res.status).toBe(200);
      const body = await res.text();
      const names = sseEventNames(body);
      expect(names.slice(-2)).toEqual(['message_delta', 'message_stop']);
      expect(names).not.toContain('error');
      const delta = JSON.parse(sseData(body).at(-2)!) as { usage: { output_tokens: number } };
      expect(delta.usage.output_tokens).toBe(COMPLETION_TOKENS);

      const event = await onlyEvent(key);
      expect(event).toMatchObject({ status: 'success', completion_tokens: COMPLETION_TOKENS });
      expect(event.quota).toBeGreaterThan(0);
      expect(event.quota).toBe(costOf(event));
    });

    it('charges a Responses stream broken after response.completed, by the usage it reported', async () => {
      const key = await harness.readyKey([relay]);
      const res = await post('/v1/responses', key, { model: gpt, input: 'Hello there', stream: true });
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(sseEventNames(body).at(-1)).toBe('response.completed');
      const completed = JSON.parse(sseData(body).at(-1)!) as {
        response: { usage: { input_tokens: number; output_tokens: number } };
      };

      const event = await onlyEvent(key);
      expect(event).toMatchObject({
        status: 'success',
        prompt_tokens: completed.response.usage.input_tokens,
        completion_tokens: completed.response.usage.output_tokens,
      });
      expect(event.quota).toBeGreaterThan(0);
      expect(event.quota).toBe(costOf(event));
    });

    it('still ends a chat stream broken before its finish reason with an error, charged nothing', async () => {
      const key = await harness.readyKey([relay]);
      const res = await post('/v1/chat/completions', key, chat(gptCut, { stream: true }));
      const data = sseData(await res.text());
      expect(data.at(-1)).toBe('[DONE]');
      expect(JSON.parse(data.at(-2)!)).toMatchObject({ error: { message: expect.any(String) } });
      expect(await onlyEvent(key)).toMatchObject({ status: 'upstream_error', quota: 0 });

      const anthropicKey = await harness.readyKey([relay]);
      const cut = await post(
        '/v1/messages',
        anthropicKey,
        {
          model: claudeCut,
          max_tokens: 16,
          stream: true,
          messages: [{ role: 'user', content: 'Hello there' }],
        },
        { 'anthropic-version': '2023-06-01' },
      );
      const names = sseEventNames(await cut.text());
      expect(names.at(-1)).toBe('error');
      expect(names).not.toContain('message_stop');
      expect(await onlyEvent(anthropicKey)).toMatchObject({ status: 'upstream_error', quota: 0 });
    });
  },
);
