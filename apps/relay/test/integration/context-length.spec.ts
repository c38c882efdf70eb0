import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES, type FakeUpstream } from '@tollgate/testing';
import { userAccount } from '../../src/quota/quota-reservations';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { aChannelOn, aChatRequest as chat } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

const OPENAI_REFUSAL = {
  error: {
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  },
};
const ANTHROPIC_REFUSAL = {
  type: 'error',
  error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' },
};
const GEMINI_REFUSAL = {
  error: {
    code: 400,
    message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
    status: 'INVALID_ARGUMENT',
  },
};

/** An upstream whose every model has a tiny context window: it refuses each call in its family's words. */
async function tooShortUpstream(): Promise<{ url: string; server: Server; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      calls.push(path);
      const body = path.startsWith('/v1beta/')
        ? GEMINI_REFUSAL
        : path.startsWith('/v1/messages')
          ? ANTHROPIC_REFUSAL
          : OPENAI_REFUSAL;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, calls };
}

describe.each(INFRASTRUCTURES)('a prompt too long for the model on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-context-length', { recordUsage: true });
  let world: RelayWorld;
  let relay: Relay;
  let roomy: FakeUpstream;
  let short: Awaited<ReturnType<typeof tooShortUpstream>>;
  /** Served first by a channel that refuses every call as too long, then by one that would answer. */
  const models: Record<'openai' | 'anthropic' | 'gemini', string> = { openai: '', anthropic: '', gemini: '' };
  let key: TestKey;

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    roomy = await harness.upstream({ completionTokens: 8 });
    short = await tooShortUpstream();
    relay = await harness.start();
    for (const family of ['openai', 'anthropic', 'gemini'] as const) {
      const model = world.model(`long-${family}`);
      models[family] = model;
      await world.price(model);
      await world.channel(aChannelOn(short, [model], { type: CHANNEL_TYPES[family], priority: 10 }));
      await world.channel(
        aChannelOn(roomy, [model], { priority: 0, model_mapping: { [model]: 'gpt-4o-mini' } }),
      );
    }
    key = await harness.readyKey([relay], 1_000_000);
    await eventually('relay to serve the run’s models', async () => {
      const res = await fetch(`${relay.url}/v1/models`, { headers: bearer(key) });
      const body = (await res.json()) as { data?: { id: string }[] };
      return body.data?.length === 3 ? true : undefined;
    });
  });

  afterAll(async () => {
    await harness.close();
    await new Promise((resolve) => short?.server.close(resolve));
  });

  beforeEach(() => {
    roomy.resetStats();
    short.calls.length = 0;
  });

  /** The call left nothing charged or held on the account. */
  async function nothingCharged(): Promise<void> {
    await eventually('the reservation to be released', async () =>
      (await harness.infra.runtime.kv.outstanding(userAccount(key.userId))) === 0 ? true : undefined,
    );
    expect(harness.usageOf(key.userId).every((event) => event.quota === 0)).toBe(true);
  }

  it.each(['openai', 'anthropic', 'gemini'] as const)(
    "tells an OpenAI client a %s channel's refusal as context_length_exceeded on messages, tried once",
    async (family) => {
      const res = await relay.post('/v1/chat/completions', bearer(key), chat(models[family]));

      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          message: expect.stringMatching(/context length|too long|token count/),
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      });
      expect(short.calls).toHaveLength(1);
      expect(roomy.stats().requests).toBe(0);
      await nothingCharged();
    },
  );

  it("tells an Anthropic client the refusal as invalid_request_error with the upstream's words", async () => {
    const res = await relay.post(
      '/v1/messages',
      { 'x-api-key': key.apiKey, 'anthropic-version': '2023-06-01' },
      { model: models.anthropic, max_tokens: 16, messages: [{ role: 'user', content: 'Hello there' }] },
    );

    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: ANTHROPIC_REFUSAL.error.message },
    });
    expect(roomy.stats().requests).toBe(0);
    await nothingCharged();
  });

  it('tells a Gemini client the refusal as INVALID_ARGUMENT', async () => {
    const res = await relay.post(
      `/v1beta/models/${models.gemini}:generateContent`,
      { 'x-goog-api-key': key.apiKey },
      { contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }] },
    );

    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 400, message: GEMINI_REFUSAL.error.message, status: 'INVALID_ARGUMENT' },
    });
    expect(roomy.stats().requests).toBe(0);
    await nothingCharged();
  });
});
