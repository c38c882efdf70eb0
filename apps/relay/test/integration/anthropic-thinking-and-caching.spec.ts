import Anthropic from '@anthropic-ai/sdk';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** What reached the upstream: each request's path, headers and JSON body. */
interface Captured {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** Hop-by-hop and length headers the proxy leaves to its own HTTP stack. */
const UNCOPIED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding']);

/** An HTTP proxy in front of the fake upstream that keeps every request it passes on, for the test to read. */
async function capturingProxy(target: string): Promise<{
  url: string;
  requests: Captured[];
  close: () => Promise<void>;
}> {
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      requests.push({
        path: req.url ?? '',
        headers: req.headers,
        body: raw.length === 0 ? {} : (JSON.parse(raw.toString('utf8')) as Record<string, unknown>),
      });
      const headers = Object.entries(req.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && !UNCOPIED.has(entry[0]),
      );
      const answer = await fetch(`${target}${req.url ?? ''}`, {
        method: req.method,
        headers,
        body: raw.length === 0 ? undefined : raw,
      });
      res.writeHead(
        answer.status,
        [...answer.headers].filter(([name]) => !UNCOPIED.has(name)),
      );
      if (answer.body !== null) for await (const chunk of answer.body) res.write(chunk);
      res.end();
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

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
    /** A model served by an OpenAI channel, for what other families are sent. */
    let gpt = '';
    let proxy: Awaited<ReturnType<typeof capturingProxy>>;
    const anthropic = () => new Anthropic({ apiKey: key.apiKey, baseURL: relay.url, maxRetries: 0 });
    /** What the last call of this test sent upstream to `path`. */
    const lastSent = (path: string): Captured => {
      const sent = proxy.requests.filter((request) => request.path.startsWith(path));
      expect(sent.length).toBeGreaterThan(0);
      return sent[sent.length - 1]!;
    };

    beforeAll(async () => {
      await harness.open();
      const { world } = harness;
      const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
      proxy = await capturingProxy(upstream.url);
      relay = await harness.start();
      claude = world.model('claude');
      gpt = world.model('gpt');
      await world.price(claude);
      await world.price(gpt);
      await world.channel(
        aChannelOn(proxy, [claude], {
          type: CHANNEL_TYPES.anthropic,
          model_mapping: { [claude]: 'claude-sonnet-4-5' },
        }),
      );
      await world.channel(aChannelOn(proxy, [gpt], { model_mapping: { [gpt]: 'gpt-4o' } }));
      key = await harness.readyKey([relay], 500_000_000);
      await eventually(`relay to serve ${claude}`, async () => {
        const res = await fetch(`${relay.url}/v1/models`, {
          headers: { authorization: `Bearer ${key.apiKey}` },
        });
        const listed = ((await res.json()) as { data: { id: string }[] }).data.map((model) => model.id);
        return listed.includes(claude) && listed.includes(gpt) ? true : undefined;
      });
    });

    afterAll(async () => {
      await harness.close();
      await proxy.close();
    });

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

    it('sends documents and tool results holding more than text to Anthropic as the client wrote them', async () => {
      const pdf: Anthropic.DocumentBlockParam = {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjcKJcfsj6IK' },
        title: 'Report',
        context: 'Filed in 2024',
        citations: { enabled: true },
        cache_control: { type: 'ephemeral' },
      };
      const toolResult: Anthropic.ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: 'toolu_01',
        content: [
          { type: 'text', text: '14 °C' },
          { type: 'text', text: 'sunny', cache_control: { type: 'ephemeral' } },
        ],
      };
      const messages: Anthropic.MessageParam[] = [
        { role: 'user', content: [pdf, { type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [toolResult] },
      ];
      const answer = await anthropic().messages.create({
        model: claude,
        max_tokens: 100,
        tools: [WEATHER_TOOL],
        messages,
      });
      expect(answer.content[0]?.type).toBe('text');
      const sent = lastSent('/v1/messages').body['messages'] as Anthropic.MessageParam[];
      expect(sent[0]!.content).toEqual(messages[0]!.content);
      expect(sent[2]!.content).toEqual([toolResult]);
    });

    it("refuses a PDF for a model whose channel is not Anthropic's, in Anthropic's error shape", async () => {
      const sentBefore = proxy.requests.length;
      const refusal = await anthropic()
        .messages.create({
          model: gpt,
          max_tokens: 100,
          messages: [
            {
              role: 'user',
              content: [
                {
                  type: 'document',
                  source: { type: 'url', url: 'https://example.com/report.pdf' },
                },
                { type: 'text', text: 'Summarise' },
              ],
            },
          ],
        })
        .catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(Anthropic.BadRequestError);
      const error = (refusal as InstanceType<typeof Anthropic.BadRequestError>).error as {
        type: string;
        error: { type: string; message: string };
      };
      expect(error.type).toBe('error');
      expect(error.error.type).toBe('invalid_request_error');
      expect(error.error.message).toMatch(/does not take documents/);
      expect(proxy.requests.length).toBe(sentBefore);
    });

    it('sends a text document to another channel as its text', async () => {
      await anthropic().messages.create({
        model: gpt,
        max_tokens: 100,
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'document',
                source: { type: 'text', media_type: 'text/plain', data: 'The grass is green.' },
                title: 'Facts',
              },
              { type: 'text', text: 'What colour is the grass?' },
            ],
          },
        ],
      });
      expect(lastSent('/v1/chat/completions').body['messages']).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Facts\n\nThe grass is green.' },
            { type: 'text', text: 'What colour is the grass?' },
          ],
        },
      ]);
    });

    it("passes the client's anthropic-beta header to an Anthropic channel, and to no other", async () => {
      const betas: Anthropic.Beta.AnthropicBeta[] = [
        'interleaved-thinking-2025-05-14',
        'context-1m-2025-08-07',
      ];
      const params = { max_tokens: 100, betas, messages: [{ role: 'user' as const, content: 'Hi' }] };
      await anthropic().beta.messages.create({ ...params, model: claude });
      expect(lastSent('/v1/messages').headers['anthropic-beta']).toBe(betas.join(','));
      await anthropic()
        .beta.messages.stream({ ...params, model: claude })
        .finalMessage();
      expect(lastSent('/v1/messages').headers['anthropic-beta']).toBe(betas.join(','));
      await anthropic().beta.messages.create({ ...params, model: gpt });
      expect(lastSent('/v1/chat/completions').headers['anthropic-beta']).toBeUndefined();
    });

    it("tells the prompt's tokens in message_start, as the Anthropic channel told them", async () => {
      const events = await anthropic().messages.create({
        model: claude,
        max_tokens: 100,
        stream: true,
        messages: [{ role: 'user', content: 'How many tokens is this prompt?' }],
      });
      let atStart: Anthropic.Usage | undefined;
      let atEnd: Anthropic.MessageDeltaUsage | undefined;
      for await (const event of events) {
        if (event.type === 'message_start') atStart = event.message.usage;
        if (event.type === 'message_delta') atEnd = event.usage;
      }
      expect(atStart?.input_tokens).toBeGreaterThan(0);
      expect(atStart?.input_tokens).toBe(atEnd?.input_tokens);
    });

    it("sends Anthropic a history without the unsigned thinking an OpenAI-style channel gave (DeepSeek's reasoning)", async () => {
      // What the SDK assembles from relay's stream of a reasoning_content upstream: a thinking block
      // whose signature is empty. Anthropic (and the fake) refuse it in a history.
      const unsigned = { type: 'thinking' as const, thinking: 'DeepSeek reasoned here.', signature: '' };
      const answer = await anthropic().messages.create({
        model: claude,
        max_tokens: 4096,
        thinking: THINKING,
        messages: [
          { role: 'user', content: 'Hello' },
          { role: 'assistant', content: [unsigned, { type: 'text', text: 'Hi!' }] },
          { role: 'user', content: 'And now?' },
        ],
      });
      expect(answer.content[0]?.type).toBe('thinking');
      const sent = lastSent('/v1/messages').body;
      expect((sent['messages'] as Anthropic.MessageParam[])[1]!.content).toEqual([
        { type: 'text', text: 'Hi!' },
      ]);
      expect(sent['thinking']).toEqual(THINKING);
    });
  },
);
