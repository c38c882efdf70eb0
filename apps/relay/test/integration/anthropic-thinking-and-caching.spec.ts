import Anthropic from '@anthropic-ai/sdk';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import {
  eventually,
  fakeThinkingSignature,
  FAKE_THINKING,
  INFRASTRUCTURES,
  TOOL_CALL_MARKER,
} from '@tollgate/testing';
import type { TestKey } from '../support/relay-world';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

const WEATHER_TOOL: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const THINKING = { type: 'enabled', budget_tokens: 2048 } as const;

/** A reference text long enough for Anthropic to cache (1024 tokens and more). */
function referenceText(run: string): string {
  return Array.from({ length: 600 }, (_, line) => `reference ${run} line ${line}`).join('\n');
}

/**
 * Claude Code's use of an Anthropic channel through relay with @anthropic-ai/sdk: extended thinking
 * with tool use over several turns (the history's thinking blocks must reach Anthropic signed), and
 * prompt caching told back as Anthropic tells it. The fake upstream checks signatures as Anthropic does.
 */
describe.each(INFRASTRUCTURES)(
  'extended thinking and prompt caching on an Anthropic channel on %s infrastructure',
  (kind) => {
    const harness = new RelayHarness(kind, 'relay-anthropic-thinking', { recordUsage: true });
    let relay: Relay;
    let key: TestKey;
    let claude = '';
    const anthropic = () => new Anthropic({ apiKey: key.apiKey, baseURL: relay.url, maxRetries: 0 });

    beforeAll(async () => {
      await harness.open();
      const { world } = harness;
      const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
      relay = await harness.start();
      claude = world.model('claude');
      await world.price(claude);
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

    it('answers signed thinking with a tool call, and takes the signed thinking back with the tool result', async () => {
      const client = anthropic();
      const question: Anthropic.MessageParam = {
        role: 'user',
        content: `Weather in Paris? ${TOOL_CALL_MARKER}`,
      };
      const first = await client.messages.create({
        model: claude,
        max_tokens: 4096,
        thinking: THINKING,
        tools: [WEATHER_TOOL],
        messages: [question],
      });
      expect(first.content[0]).toEqual({
        type: 'thinking',
        thinking: FAKE_THINKING,
        signature: fakeThinkingSignature(FAKE_THINKING),
      });
      const call = first.content.find((block) => block.type === 'tool_use');
      expect(call).toBeDefined();

      const second = await client.messages.create({
        model: claude,
        max_tokens: 4096,
        thinking: THINKING,
        tools: [WEATHER_TOOL],
        messages: [
          question,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: '14 °C' }] },
        ],
      });
      expect(second.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    });

    it('streams the thinking with its signature, as the SDK assembles it', async () => {
      const stream = anthropic().messages.stream({
        model: claude,
        max_tokens: 4096,
        thinking: THINKING,
        messages: [{ role: 'user', content: 'Hello' }],
      });
      const final = await stream.finalMessage();
      expect(final.content[0]).toEqual({
        type: 'thinking',
        thinking: FAKE_THINKING,
        signature: fakeThinkingSignature(FAKE_THINKING),
      });
      expect(final.content[1]?.type).toBe('text');
    });

    it.each([false, true])(
      'tells a cache write, then a cache read, as Anthropic does (stream: %s)',
      async (stream) => {
        const client = anthropic();
        const system: Anthropic.TextBlockParam[] = [
          { type: 'text', text: referenceText(`${kind}-${stream}`), cache_control: { type: 'ephemeral' } },
        ];
        const call = async (): Promise<Anthropic.Usage> => {
          const params = {
            model: claude,
            max_tokens: 100,
            system,
            messages: [{ role: 'user' as const, content: 'Hi' }],
          };
          return stream
            ? (await client.messages.stream(params).finalMessage()).usage
            : (await client.messages.create(params)).usage;
        };
        const written = await call();
        expect(written.cache_creation_input_tokens).toBeGreaterThan(1024);
        expect(written.cache_read_input_tokens).toBe(0);
        const read = await call();
        expect(read.cache_creation_input_tokens).toBe(0);
        expect(read.cache_read_input_tokens).toBe(written.cache_creation_input_tokens);
        expect(read.input_tokens).toBe(written.input_tokens);
      },
    );
  },
);
