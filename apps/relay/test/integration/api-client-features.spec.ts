import Anthropic from '@anthropic-ai/sdk';
import {
  CHANNEL_TYPES,
  priceKey,
  QUOTA_PER_USD,
  SETTING_KEYS,
  TOPICS,
  type Envelope,
  type GroupRateLimits,
} from '@tollgate/contracts';
import { eventually, getJson, INFRASTRUCTURES, type FakeUpstream } from '@tollgate/testing';
import OpenAI from 'openai';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { aChannelOn, costOf } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What API clients read besides the answer, through the official SDKs: rate limits across two relay
 * replicas on one shared store (Redis in the distributed runtime, the process's store in the
 * embedded one), and each call's cost.
 */
describe.each(INFRASTRUCTURES)('rate limits and cost on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-rate-limits');
  let world: RelayWorld;
  let slowUpstream: FakeUpstream;
  let replicas: Relay[] = [];
  let gpt: string;
  let claude: string;
  let slow: string;
  let embed: string;
  let moderation: string;
  let reranker: string;
  let broken: string;

  const setGroupLimits = (limits: GroupRateLimits) =>
    harness.bus.publish([
      {
        topic: TOPICS.catalogOption.name,
        key: SETTING_KEYS.groupRateLimits,
        value: {
          v: 1,
          key: SETTING_KEYS.groupRateLimits,
          value: JSON.stringify(limits),
          updated_at: Math.floor(Date.now() / 1000),
        },
      },
    ]);
  const openai = (key: TestKey, replica: number) =>
    new OpenAI({ apiKey: key.apiKey, baseURL: `${replicas[replica]!.url}/v1`, maxRetries: 0 });
  const ask = (key: TestKey, replica: number, model = gpt) =>
    openai(key, replica)
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 16 })
      .withResponse();
  /** On both replicas: the key is known and its owner's balance is in the balances table. */
  const keyReady = (key: TestKey) => harness.keyReady(key, ...replicas);
  const readyKey = (
    token: Parameters<RelayWorld['key']>[1] = {},
    user: Parameters<RelayWorld['key']>[2] = {},
  ) => harness.readyKey(replicas, 50_000_000, token, user);

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    const upstream = await harness.upstream({ completionTokens: 8, chunks: 2 });
    slowUpstream = await harness.upstream({ completionTokens: 4, latencyMs: 1500 });
    const failing = await harness.upstream({ failRate: 1, failStatus: 503 });
    gpt = world.model('gpt');
    claude = world.model('claude');
    slow = world.model('slow');
    embed = world.model('embed');
    moderation = world.model('moderation');
    reranker = world.model('reranker');
    broken = world.model('broken');
    for (let i = 0; i < 2; i++) replicas.push(await harness.start());
    // Topics exist once a service has started.
    await setGroupLimits({ [world.group]: { rpm: 1000, tpm: 0, concurrency: 0 } });
    await Promise.all(
      [gpt, claude, slow, embed, broken, moderation, reranker].map((model) => world.price(model)),
    );
    await world.channel(aChannelOn(failing, [broken]));
    await world.channel(aChannelOn(upstream, [gpt, embed, moderation, reranker]));
    await world.channel(aChannelOn(slowUpstream, [slow]));
    await world.channel(aChannelOn(upstream, [claude], { type: CHANNEL_TYPES.anthropic }));
  });

  afterAll(async () => {
    await harness.close();
    replicas = [];
  });

  it("counts a key's requests per minute across both replicas, tells the SDK with OpenAI's headers, then answers 429", async () => {
    const key = await readyKey({ rpm_limit: 4 });
    const remaining: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { response } = await ask(key, i % 2);
      expect(response.headers.get('x-ratelimit-limit-requests')).toBe('4');
      expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(
        /^\d+(\.\d+)?m?s$|^\d+m\d+(\.\d+)?s$/,
      );
      remaining.push(response.headers.get('x-ratelimit-remaining-requests')!);
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    for (const replica of [0, 1]) {
      const refused = await ask(key, replica).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
      const error = refused as InstanceType<typeof OpenAI.RateLimitError>;
      expect(error.status).toBe(429);
      expect(Number(error.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(error.message).toContain('requests per minute');
    }
  });

  it("answers 429 in Anthropic's shape, with the headers on the answers before it", async () => {
    const key = await readyKey({ rpm_limit: 1 });
    const anthropic = (replica: number) =>
      new Anthropic({ apiKey: key.apiKey, baseURL: replicas[replica]!.url, maxRetries: 0 });
    const ok = await anthropic(0)
      .messages.create({ model: claude, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    expect(ok.response.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const refused = await anthropic(1)
      .messages.create({ model: claude, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    expect((refused as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error' },
    });
  });

  it("answers 429 in Gemini's shape", async () => {
    const key = await readyKey({ rpm_limit: 1 });
    const generate = (replica: number) =>
      fetch(`${replicas[replica]!.url}/v1beta/models/${gpt}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': key.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }),
      });
    expect((await generate(0)).status).toBe(200);
    const refused = await generate(1);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { status: string } }).error.status).toBe('RESOURCE_EXHAUSTED');
  });

  it('holds a concurrency slot on one replica against a call on the other until the first ends', async () => {
    const key = await readyKey({ concurrency_limit: 1 });
    const first = ask(key, 0, slow);
    // The first call is admitted once the slow upstream has it in hand.
    await eventually('the slow call in flight', async () =>
      slowUpstream.stats().requests > 0 ? true : undefined,
    );
    const refused = await ask(key, 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as Error).message).toContain('concurrent requests');
    await first;
    await eventually('the slot back', async () => {
      try {
        await ask(key, 1);
        return true;
      } catch (error) {
        if (error instanceof OpenAI.RateLimitError) return undefined;
        throw error;
      }
    });
  });

  it('reserves tokens per minute up front and corrects them by the usage the call really had', async () => {
    const key = await readyKey({ tpm_limit: 5000 });
    const first = await ask(key, 0);
    const left = Number(first.response.headers.get('x-ratelimit-remaining-tokens'));
    expect(first.response.headers.get('x-ratelimit-limit-tokens')).toBe('5000');
    const reserved = 5000 - left;
    const used = first.data.usage!.prompt_tokens + first.data.usage!.completion_tokens;
    expect(reserved).toBeGreaterThan(used);
    // A replica hands a lease back to the store within its lease period (500 ms by default).
    await sleep(1200);
    const second = await ask(key, 1);
    expect(Number(second.response.headers.get('x-ratelimit-remaining-tokens'))).toBe(5000 - used - reserved);
  });

  it("applies a change of the group's limits on both replicas, to all of a user's keys together", async () => {
    const key = await readyKey();
    await setGroupLimits({ [world.group]: { rpm: 2, tpm: 0, concurrency: 0 } });
    for (const replica of [0, 1]) {
      const probe = await readyKey();
      await eventually(`the new group limit on replica ${replica}`, async () => {
        try {
          const { response } = await ask(probe, replica);
          return response.headers.get('x-ratelimit-limit-requests') === '2' ? true : undefined;
        } catch (error) {
          // The probe's calls under the old limit may already fill the new one.
          if (error instanceof OpenAI.RateLimitError) return true;
          throw error;
        }
      });
    }
    const sameUser = await world.keyOf(key.userId);
    await keyReady(sameUser);
    await ask(key, 0);
    await ask(sameUser, 1);
    const refused = await ask(key, 1).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    expect((refused as Error).message).toContain('for this account');
    await setGroupLimits({ [world.group]: { rpm: 1000, tpm: 0, concurrency: 0 } });
  });

  it('states the cost in the answer’s usage and in x-tollgate-cost, in dollars and quota', async () => {
    const key = await readyKey({}, { default_currency: 'USD' });
    const { data, response } = await ask(key, 0);
    const usage = data.usage as unknown as {
      prompt_tokens: number;
      completion_tokens: number;
      cost: number;
      cost_quota: number;
    };
    const quota = costOf(usage);
    expect(quota).toBeGreaterThan(0);
    expect(usage.cost_quota).toBe(quota);
    expect(usage.cost).toBeCloseTo(quota / QUOTA_PER_USD, 9);
    expect(response.headers.get('x-tollgate-cost-quota')).toBe(String(quota));
    expect(Number(response.headers.get('x-tollgate-cost'))).toBeCloseTo(quota / QUOTA_PER_USD, 9);
    expect(usage).toMatchObject({ cost_currency: 'USD' });
    expect(response.headers.get('x-tollgate-cost-currency')).toBe('USD');
  });

  it('states the cost in the last usage chunk of a stream that asks for usage', async () => {
    const key = await readyKey({}, { default_currency: 'USD' });
    const stream = await openai(key, 1).chat.completions.create({
      model: gpt,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 16,
      stream: true,
      stream_options: { include_usage: true },
    });
    let last:
      { prompt_tokens: number; completion_tokens: number; cost?: number; cost_quota?: number } | undefined;
    for await (const chunk of stream) if (chunk.usage) last = chunk.usage as typeof last;
    expect(last?.cost_quota).toBe(costOf(last!));
    expect(last?.cost).toBeCloseTo(costOf(last!) / QUOTA_PER_USD, 9);
  });

  it('states a ruble account’s cost in rubles once billing has published the rate, in dollars before', async () => {
    const rateOn = async (replica: Relay) =>
      (
        await getJson<Envelope<{ updated_at: number | null }>>(
          `${replica.url}/internal/read-models/prices/${encodeURIComponent(priceKey.rate('USD_RUB'))}`,
          await replica.asRoot(),
        )
      ).body.data?.updated_at;
    const key = await readyKey({}, { default_currency: 'RUB' });
    const costIn = (usage: unknown) =>
      usage as {
        prompt_tokens: number;
        completion_tokens: number;
        cost: number;
        cost_currency: string;
        cost_quota: number;
      };

    // No rate known yet: the dollars, labelled as such, never a guessed ruble amount.
    const before = await ask(key, 0);
    const dollars = costIn(before.data.usage);
    expect(dollars.cost_currency).toBe('USD');
    expect(dollars.cost).toBeCloseTo(costOf(dollars) / QUOTA_PER_USD, 9);
    expect(before.response.headers.get('x-tollgate-cost-currency')).toBe('USD');

    const publishedAt = Math.floor(Date.now() / 1000);
    await world.exchangeRate('90.5', publishedAt);
    await eventually('the rate on both replicas', async () =>
      (await Promise.all(replicas.map(rateOn))).every((at) => at === publishedAt) ? true : undefined,
    );
    const { data, response } = await ask(key, 0);
    const rubles = costIn(data.usage);
    const quota = costOf(rubles);
    // 90.5 ₽ per dollar: a quota unit (2 millionths of a dollar) is 181 millionths of a ruble, exactly.
    expect(rubles).toMatchObject({ cost_currency: 'RUB', cost_quota: quota });
    expect(rubles.cost).toBeCloseTo((quota * 181) / 1_000_000, 9);
    expect(response.headers.get('x-tollgate-cost-currency')).toBe('RUB');
    expect(response.headers.get('x-tollgate-cost')).toMatch(/^\d+(\.\d{1,6})?$/);
    expect(Number(response.headers.get('x-tollgate-cost'))).toBeCloseTo((quota * 181) / 1_000_000, 9);
    expect(response.headers.get('x-tollgate-cost-quota')).toBe(String(quota));

    const stream = await openai(key, 1).chat.completions.create({
      model: gpt,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 16,
      stream: true,
      stream_options: { include_usage: true },
    });
    let last: ReturnType<typeof costIn> | undefined;
    for await (const chunk of stream) if (chunk.usage) last = costIn(chunk.usage);
    expect(last).toMatchObject({ cost_currency: 'RUB', cost_quota: costOf(last!) });
    expect(last!.cost).toBeCloseTo((costOf(last!) * 181) / 1_000_000, 9);

    // A dollar account is told dollars whatever the rate.
    const inDollars = await ask(await readyKey({}, { default_currency: 'USD' }), 1);
    expect(costIn(inDollars.data.usage).cost_currency).toBe('USD');
    expect(inDollars.response.headers.get('x-tollgate-cost-currency')).toBe('USD');
  });

  it('states the cost of an Anthropic answer in x-tollgate-cost and of embeddings in their usage', async () => {
    const key = await readyKey();
    const message = await new Anthropic({
      apiKey: key.apiKey,
      baseURL: replicas[0]!.url,
      maxRetries: 0,
    }).messages
      .create({ model: claude, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .withResponse();
    const charged = costOf({
      prompt_tokens: message.data.usage.input_tokens,
      completion_tokens: message.data.usage.output_tokens,
    });
    expect(message.response.headers.get('x-tollgate-cost-quota')).toBe(String(charged));
    const embedding = await openai(key, 0)
      .embeddings.create({ model: embed, input: 'hello world' })
      .withResponse();
    const usage = embedding.data.usage as unknown as { prompt_tokens: number; cost_quota: number };
    expect(usage.cost_quota).toBe(costOf(usage));
    expect(embedding.response.headers.get('x-tollgate-cost-quota')).toBe(String(costOf(usage)));
  });

  /** OpenRouter's `models` is not in the SDK's types. */
  const withFallbacks = (body: Record<string, unknown>) =>
    body as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

  it('tries the models of `models` in order while one cannot serve, and says which one did', async () => {
    const key = await readyKey();
    const client = openai(key, 0);
    const served = await client.chat.completions.create(
      withFallbacks({
        model: `${gpt}-unknown`,
        models: [broken, gpt],
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: 16,
      }),
    );
    expect(served.model).toBe(gpt);
    expect(served.choices[0]!.message.content).toBeTruthy();
    // Without `model`, the first of `models` is asked first; a stream falls back the same way.
    const stream = await client.chat.completions.create({
      ...withFallbacks({ models: [broken, gpt], messages: [{ role: 'user', content: 'Hi' }] }),
      stream: true,
    });
    const models = new Set<string>();
    for await (const chunk of stream) models.add(chunk.model);
    expect([...models]).toEqual([gpt]);
    // When every model fails, the last one's refusal is the answer.
    const refused = await client.chat.completions
      .create(
        withFallbacks({ models: [`${gpt}-unknown`, broken], messages: [{ role: 'user', content: 'Hi' }] }),
      )
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(500);
  });

  it('refuses more than eight fallbacks or a request that names no model at all', async () => {
    const key = await readyKey();
    const post = (body: unknown) =>
      fetch(`${replicas[0]!.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const messages = [{ role: 'user', content: 'Hi' }];
    expect((await post({ models: Array.from({ length: 9 }, () => gpt), messages })).status).toBe(400);
    const none = await post({ messages });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain('model');
  });

  it('holds what a call can really cost when the balance is small, and says in the 402 what it affords', async () => {
    const prompt = 'Tell me about the weather in Moscow and what to wear this evening. '.repeat(30);
    const realCost = costOf({ prompt_tokens: 400, completion_tokens: 8 });
    // About ten calls' worth; with the body's bytes as the prompt's bound only two would be served.
    const key = await harness.readyKey(replicas, 10 * realCost);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        openai(key, 0).chat.completions.create({
          model: gpt,
          messages: [{ role: 'user', content: prompt }],
          max_tokens: 16,
        }),
      ),
    );
    const served = outcomes.filter((o) => o.status === 'fulfilled').length;
    expect(served).toBeGreaterThanOrEqual(5);
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refusals.length).toBeGreaterThan(0);
    for (const { reason } of refusals) {
      expect(reason).toBeInstanceOf(OpenAI.APIError);
      expect((reason as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
      expect((reason as Error).message).toMatch(/can only afford \d+|Calls in flight/);
    }
  });

  it('relays moderations (OpenAI SDK) and rerank (the Jina/Cohere shape) to channels that offer them', async () => {
    const key = await readyKey();
    const moderated = await openai(key, 0).moderations.create({
      model: moderation,
      input: ['I will kill the process', 'Hello there'],
    });
    expect(moderated.results.map((result) => result.flagged)).toEqual([true, false]);
    const res = await fetch(`${replicas[1]!.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: reranker,
        query: 'capital of France',
        documents: ['Bananas are yellow', 'Paris is the capital of France'],
        top_n: 1,
      }),
    });
    expect(res.status).toBe(200);
    const ranked = (await res.json()) as {
      results: { index: number; relevance_score: number }[];
      usage: { prompt_tokens: number; cost_quota: number };
    };
    expect(ranked.results).toEqual([{ index: 1, relevance_score: 1 }]);
    expect(ranked.usage.cost_quota).toBe(costOf(ranked.usage));
    expect(res.headers.get('x-tollgate-cost-quota')).toBe(String(costOf(ranked.usage)));
    const missing = await fetch(`${replicas[0]!.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'q', documents: ['d'] }),
    });
    expect(missing.status).toBe(400);
  });

  it("serves a key's model alias as the model it names, in chat and pass-through alike", async () => {
    const key = await readyKey({ model_aliases: { 'gpt-4': gpt, 'text-embedding-ada-002': embed } });
    const client = openai(key, 0);
    const answer = await client.chat.completions.create({
      model: 'gpt-4',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 16,
    });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    expect((answer.usage as unknown as { cost_quota: number }).cost_quota).toBe(costOf(answer.usage!));
    const embedded = await client.embeddings.create({ model: 'text-embedding-ada-002', input: 'hello' });
    expect(embedded.data).toHaveLength(1);
    // The key's model list offers the aliases it answers to, as the models they are served on.
    const listed = new Map((await client.models.list()).data.map((model) => [model.id, model]));
    expect(listed.get('gpt-4')).toEqual({ ...listed.get(gpt), id: 'gpt-4' });
    expect(listed.has('text-embedding-ada-002')).toBe(true);
    expect((await client.models.retrieve('gpt-4')).owned_by).toBe(listed.get(gpt)!.owned_by);
    // Another key has no such alias.
    const plain = await readyKey();
    expect((await openai(plain, 0).models.list()).data.map((model) => model.id)).not.toContain('gpt-4');
    const refused = await openai(plain, 0)
      .chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
  });
});
