import { randomBytes } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { ApiError, GoogleGenAI, Type, type Schema } from '@google/genai';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import { eventually, INFRASTRUCTURES } from '@tollgate/testing';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod/v4';
import { countPromptTokens, countTextTokens } from '../../src/token-counting';
import type { TestKey } from '../support/relay-world';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** The structured answer every structured-output case asks for. */
const Forecast = z.object({
  city: z.string(),
  days: z.number().int(),
  sunny: z.boolean(),
  unit: z.enum(['celsius', 'fahrenheit']),
  hours: z.array(z.number().int()),
});

/** `Forecast` in Gemini's own schema dialect (`responseSchema`), as @google/genai's documentation writes it. */
const FORECAST_SCHEMA: Schema = {
  type: Type.OBJECT,
  properties: {
    city: { type: Type.STRING },
    days: { type: Type.INTEGER },
    sunny: { type: Type.BOOLEAN },
    unit: { type: Type.STRING, enum: ['celsius', 'fahrenheit'] },
    hours: { type: Type.ARRAY, items: { type: Type.INTEGER } },
  },
  required: ['city', 'days', 'sunny', 'unit', 'hours'],
};

const COUNTED = 'How many tokens are in this sentence?';

const fitsForecast = (value: unknown) => expect(Forecast.strict().safeParse(value).error).toBeUndefined();

/**
 * The official SDKs at their current defaults (only the base URL and the key set) against relay and
 * the fake upstream: @google/genai on Gemini API v1beta (its default) and v1 (google-genai Python's
 * default), Anthropic's count_tokens, structured outputs through openai's and Anthropic's parse
 * helpers, on OpenAI, Anthropic and Gemini channels alike. The e2e tier runs the same SDKs (and the
 * Python ones) through the gateway.
 */
describe.each(INFRASTRUCTURES)('the official SDKs at their defaults on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-sdk-defaults', { recordUsage: true });
  let relay: Relay;
  let key: TestKey;
  const models = { gpt: '', embed: '', claude: '', gemini: '', geminiEmbed: '' };

  const genai = (apiVersion: string, apiKey = key.apiKey) =>
    new GoogleGenAI({ apiKey, httpOptions: { baseUrl: relay.url, apiVersion } });
  const anthropic = (apiKey = key.apiKey) => new Anthropic({ apiKey, baseURL: relay.url, maxRetries: 0 });
  const openai = (apiKey = key.apiKey) => new OpenAI({ apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });
  const fundedKey = async (): Promise<TestKey> => {
    const made = await harness.readyKey([relay], 500_000_000);
    await eventually(`relay to serve the run's models to user ${made.userId}`, async () => {
      const res = await fetch(`${relay.url}/v1/models`, {
        headers: { authorization: `Bearer ${made.apiKey}` },
      });
      const listed = ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
      return Object.values(models).every((model) => listed.includes(model)) ? true : undefined;
    });
    return made;
  };

  beforeAll(async () => {
    await harness.open();
    const { world } = harness;
    const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
    relay = await harness.start();
    models.gpt = world.model('gpt');
    models.embed = world.model('embed');
    models.claude = world.model('claude');
    models.gemini = world.model('gemini');
    // Not `gemini-embedding-<run id>`: @google/genai sends every content of a call as one when the model's
    // name contains "gemini-embedding-2" (Gemini Embedding 2), which a run id starting with 2 made it.
    models.geminiEmbed = world.model('gemini-embed');
    await Promise.all(Object.values(models).map((model) => world.price(model)));
    await world.channel(
      aChannelOn(upstream, [models.gpt, models.embed], {
        model_mapping: { [models.gpt]: 'gpt-4o-mini', [models.embed]: 'text-embedding-3-small' },
      }),
    );
    await world.channel(
      aChannelOn(upstream, [models.claude], {
        type: CHANNEL_TYPES.anthropic,
        model_mapping: { [models.claude]: 'claude-sonnet-4-5' },
      }),
    );
    await world.channel(
      aChannelOn(upstream, [models.gemini, models.geminiEmbed], {
        type: CHANNEL_TYPES.gemini,
        model_mapping: { [models.gemini]: 'gemini-2.5-flash', [models.geminiEmbed]: 'gemini-embedding-001' },
      }),
    );
    key = await fundedKey();
  });

  afterAll(() => harness.close());

  describe.each(['v1beta', 'v1'])('@google/genai on Gemini API %s', (apiVersion) => {
    it('generates, streams and counts on a Gemini channel, the count equal to what generating reports', async () => {
      const client = genai(apiVersion);
      const answer = await client.models.generateContent({ model: models.gemini, contents: COUNTED });
      expect(answer.text).toMatch(/\S/);
      expect(answer.candidates?.[0]?.finishReason).toBe('STOP');
      expect(answer.usageMetadata?.candidatesTokenCount).toBe(8);
      let pieces = 0;
      for await (const chunk of await client.models.generateContentStream({
        model: models.gemini,
        contents: 'Hello',
      }))
        if (chunk.text) pieces += 1;
      expect(pieces).toBeGreaterThan(1);
      const counted = await client.models.countTokens({ model: models.gemini, contents: COUNTED });
      expect(counted.totalTokens).toBe(answer.usageMetadata?.promptTokenCount);
      expect(counted.totalTokens).toBeGreaterThan(0);
    });

    it('counts exactly on an Anthropic channel, with the tokenizer on an OpenAI one', async () => {
      const client = genai(apiVersion);
      const generated = await client.models.generateContent({ model: models.claude, contents: COUNTED });
      const onClaude = await client.models.countTokens({ model: models.claude, contents: COUNTED });
      expect(onClaude.totalTokens).toBe(generated.usageMetadata?.promptTokenCount);
      const onGpt = await client.models.countTokens({ model: models.gpt, contents: COUNTED });
      expect(onGpt.totalTokens).toBe(
        countPromptTokens({
          model: models.gpt,
          messages: [{ role: 'user', content: [{ type: 'text', text: COUNTED }] }],
        }),
      );
    });

    it.each([
      ['a Gemini', () => models.geminiEmbed],
      ['an OpenAI', () => models.embed],
    ])('embeds a batch on %s channel (batchEmbedContents)', async (_family, model) => {
      const answer = await genai(apiVersion).models.embedContent({
        model: model(),
        contents: ['first text', 'second text'],
        config: { outputDimensionality: 16 },
      });
      const vectors = (answer.embeddings ?? []).map((embedding) => embedding.values ?? []);
      expect(vectors).toHaveLength(2);
      expect(vectors.map((values) => values.length)).toEqual([16, 16]);
      expect(vectors[0]).not.toEqual(vectors[1]);
    });

    it.each([
      ['a Gemini', () => models.gemini],
      ['an OpenAI', () => models.gpt],
      ['an Anthropic', () => models.claude],
    ])('answers JSON that fits a responseSchema on %s channel', async (_family, model) => {
      const answer = await genai(apiVersion).models.generateContent({
        model: model(),
        contents: 'Forecast for Paris',
        config: { responseMimeType: 'application/json', responseSchema: FORECAST_SCHEMA },
      });
      fitsForecast(JSON.parse(answer.text ?? 'null'));
    });

    it("lists and gets the key's models in Gemini's shape", async () => {
      const client = genai(apiVersion);
      const names: string[] = [];
      for await (const model of await client.models.list()) names.push(model.name ?? '');
      expect(names).toEqual(expect.arrayContaining(Object.values(models).map((m) => `models/${m}`)));
      expect((await client.models.get({ model: models.gemini })).name).toBe(`models/${models.gemini}`);
    });

    it('raises ApiError 401 for a wrong key', async () => {
      const refused = await genai(apiVersion, `sk-${randomBytes(24).toString('hex')}`)
        .models.countTokens({ model: models.gemini, contents: COUNTED })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(401);
    });
  });

  it('embeds one content with embedContent, charged by the counted texts on a Gemini channel', async () => {
    const payer = await fundedKey();
    const res = await fetch(`${relay.url}/v1/models/${models.geminiEmbed}:embedContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': payer.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { parts: [{ text: 'first text' }] }, outputDimensionality: 8 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { embedding: { values: number[] } }).embedding.values).toHaveLength(8);
    const [event] = await harness.usageEvents(payer.userId);
    expect(event).toMatchObject({
      model: models.geminiEmbed,
      upstream_model: 'gemini-embedding-001',
      prompt_tokens: countTextTokens('first text'),
      completion_tokens: 0,
      status: 'success',
    });
    expect(event!.quota).toBeGreaterThan(0);
  });

  it("streams Gemini's JSON-array form without alt=sse, on v1", async () => {
    const res = await fetch(`${relay.url}/v1/models/${models.gpt}:streamGenerateContent?key=${key.apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'Hello' }] }] }),
    });
    expect(res.status).toBe(200);
    const elements = JSON.parse(await res.text()) as {
      candidates: { content: { parts: { text?: string }[] } }[];
    }[];
    expect(elements.length).toBeGreaterThan(1);
    expect(
      elements.map((e) => e.candidates[0]!.content.parts.map((p) => p.text ?? '').join('')).join(''),
    ).toMatch(/\S/);
  });

  it("answers GET /v1/models in OpenAI's shape for a Bearer key and in Gemini's for x-goog-api-key", async () => {
    const bearer = await fetch(`${relay.url}/v1/models`, {
      headers: { authorization: `Bearer ${key.apiKey}` },
    });
    expect(await bearer.json()).toMatchObject({
      object: 'list',
      data: expect.arrayContaining([expect.objectContaining({ id: models.gpt })]),
    });
    const gemini = await fetch(`${relay.url}/v1/models`, { headers: { 'x-goog-api-key': key.apiKey } });
    expect(await gemini.json()).toMatchObject({
      models: expect.arrayContaining([expect.objectContaining({ name: `models/${models.gpt}` })]),
    });
    const one = await fetch(`${relay.url}/v1/models/${models.gpt}?key=${key.apiKey}`);
    expect(await one.json()).toMatchObject({ name: `models/${models.gpt}`, baseModelId: models.gpt });
  });

  describe('Anthropic models.list and models.retrieve (sent with anthropic-version, the key as Bearer)', () => {
    /** The key's models as OpenAI's list gives them: the same models, in the same order (by name). */
    const openAiIds = async (): Promise<string[]> => {
      const res = await fetch(`${relay.url}/v1/models`, {
        headers: { authorization: `Bearer ${key.apiKey}` },
      });
      return ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    };
    const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

    it("lists the key's models in Anthropic's shape, with has_more, first_id and last_id", async () => {
      const ids = await openAiIds();
      const page = await anthropic().models.list();
      expect(page.data.map((m) => m.id)).toEqual(ids);
      expect(page).toMatchObject({ has_more: false, first_id: ids[0], last_id: ids.at(-1) });
      for (const model of page.data) {
        expect(model).toMatchObject({ type: 'model', display_name: model.id, lifecycle: 'active' });
        expect(model.created_at).toMatch(RFC_3339);
      }
      expect(page.data.find((m) => m.id === models.claude)).toBeDefined();
    });

    it('pages by limit, after_id and before_id, the SDK following has_more to the end', async () => {
      const ids = await openAiIds();
      expect(ids.length).toBeGreaterThan(3);
      const client = anthropic();
      const first = await client.models.list({ limit: 2 });
      expect(first.data.map((m) => m.id)).toEqual(ids.slice(0, 2));
      expect(first).toMatchObject({ has_more: true, last_id: ids[1] });
      const all: string[] = [];
      for await (const model of client.models.list({ limit: 2 })) all.push(model.id);
      expect(all).toEqual(ids);
      const after = await client.models.list({ limit: 2, after_id: ids[1] });
      expect(after.data.map((m) => m.id)).toEqual(ids.slice(2, 4));
      const before = await client.models.list({ limit: 2, before_id: ids.at(-1) });
      expect(before.data.map((m) => m.id)).toEqual(ids.slice(-3, -1));
      expect(before.has_more).toBe(ids.length > 3);
    });

    it("gets one model, and answers 404 in Anthropic's error shape for a model the key may not use", async () => {
      const one = await anthropic().models.retrieve(models.claude);
      expect(one).toMatchObject({ type: 'model', id: models.claude, display_name: models.claude });
      expect(one.created_at).toMatch(RFC_3339);
      const unknown = await anthropic()
        .models.retrieve(harness.world.model('nonexistent'))
        .catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
      expect((unknown as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
        type: 'error',
        error: { type: 'not_found_error' },
      });
    });

    it("refuses a limit out of range as a bad request in Anthropic's error shape", async () => {
      const refused = await anthropic()
        .models.list({ limit: 0 })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error' },
      });
    });

    it("leaves OpenAI's SDK its own shape on the same routes", async () => {
      const listed = await openai().models.list();
      expect(listed.data.map((m) => m.id)).toEqual(await openAiIds());
      expect(await openai().models.retrieve(models.claude)).toMatchObject({
        id: models.claude,
        object: 'model',
        owned_by: expect.any(String),
      });
    });
  });

  describe('Anthropic messages.countTokens', () => {
    const messages = [{ role: 'user' as const, content: COUNTED }];

    it.each([
      ['exactly from an Anthropic channel', () => models.claude],
      ['exactly from a Gemini channel', () => models.gemini],
    ])('counts %s, as the answer to the same messages reports', async (_how, model) => {
      const client = anthropic();
      const answer = await client.messages.create({ model: model(), max_tokens: 64, messages });
      const counted = await client.messages.countTokens({ model: model(), messages });
      expect(counted.input_tokens).toBe(answer.usage.input_tokens);
      expect(counted.input_tokens).toBeGreaterThan(0);
    });

    it('counts with the tokenizer on an OpenAI channel, system prompt and tools included', async () => {
      const counted = await anthropic().messages.countTokens({
        model: models.gpt,
        system: 'Be brief.',
        messages,
        tools: [
          { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
      });
      expect(counted.input_tokens).toBe(
        countPromptTokens({
          model: models.gpt,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: COUNTED },
          ],
          tools: [
            {
              type: 'function',
              function: {
                name: 'get_weather',
                parameters: { type: 'object', properties: { city: { type: 'string' } } },
              },
            },
          ],
        }),
      );
    });

    it("answers in Anthropic's error shapes: 401 for a wrong key, 404 for an unknown model", async () => {
      const wrongKey = await anthropic(`sk-${randomBytes(24).toString('hex')}`)
        .messages.countTokens({ model: models.claude, messages })
        .catch((error: unknown) => error);
      expect(wrongKey).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((wrongKey as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error' },
      });
      const unknown = await anthropic()
        .messages.countTokens({ model: harness.world.model('nonexistent'), messages })
        .catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    });
  });

  it("gives Anthropic's SDK the request id it reads from request-id, on an answer and on an error", async () => {
    const answer = await anthropic().messages.create({
      model: models.claude,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(answer._request_id).toEqual(expect.any(String));
    const refused = await anthropic(`sk-${randomBytes(24).toString('hex')}`)
      .messages.create({ model: models.claude, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((refused as InstanceType<typeof Anthropic.AuthenticationError>).requestID).toEqual(
      expect.any(String),
    );
  });

  it('writes no usage record and charges nothing for counting', async () => {
    const counter = await fundedKey();
    const contents = COUNTED;
    await anthropic(counter.apiKey).messages.countTokens({
      model: models.claude,
      messages: [{ role: 'user', content: contents }],
    });
    await anthropic(counter.apiKey).messages.countTokens({
      model: models.gpt,
      messages: [{ role: 'user', content: contents }],
    });
    await genai('v1', counter.apiKey).models.countTokens({ model: models.gemini, contents });
    await genai('v1beta', counter.apiKey).models.countTokens({ model: models.gpt, contents });
    // A served call afterwards: its record follows any the counts would have written (same user, same partition).
    await openai(counter.apiKey).chat.completions.create({
      model: models.gpt,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const events = await harness.usageEvents(counter.userId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ model: models.gpt, completion_tokens: 8 });
  });

  describe('structured outputs', () => {
    it.each([
      ['an OpenAI', () => models.gpt],
      ['an Anthropic', () => models.claude],
      ['a Gemini', () => models.gemini],
    ])(
      'openai chat.completions.parse with a zod schema gets parsed JSON from %s channel',
      async (_family, model) => {
        const answer = await openai().chat.completions.parse({
          model: model(),
          messages: [{ role: 'user', content: 'Forecast for Paris' }],
          response_format: zodResponseFormat(Forecast, 'forecast'),
        });
        expect(answer.choices[0]?.message.refusal ?? null).toBeNull();
        fitsForecast(answer.choices[0]?.message.parsed);
      },
    );

    it('openai json_object mode answers a JSON object', async () => {
      const answer = await openai().chat.completions.create({
        model: models.gpt,
        messages: [{ role: 'user', content: 'Answer in JSON' }],
        response_format: { type: 'json_object' },
      });
      expect(JSON.parse(answer.choices[0]!.message.content ?? 'null')).toEqual(expect.any(Object));
    });

    it.each([
      ['an Anthropic', () => models.claude],
      ['an OpenAI', () => models.gpt],
    ])(
      'Anthropic messages.parse with output_config.format gets parsed JSON from %s channel',
      async (_family, model) => {
        const message = await anthropic().messages.parse({
          model: model(),
          max_tokens: 256,
          messages: [{ role: 'user', content: 'Forecast for Paris' }],
          output_config: { format: zodOutputFormat(Forecast) },
        });
        fitsForecast(message.parsed_output);
      },
    );
  });

  it("answers a wrong key on Gemini's v1 methods in Gemini's error shape", async () => {
    const res = await fetch(`${relay.url}/v1/models/${models.gemini}:generateContent`, {
      method: 'POST',
      headers: {
        'x-goog-api-key': `sk-${randomBytes(24).toString('hex')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: 401, message: expect.any(String), status: 'UNAUTHENTICATED' },
    });
  });
});
