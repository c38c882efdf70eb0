import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CHANNEL_AUTO_DISABLE_CALL,
  CHANNEL_MODELS_CALL,
  CHANNEL_TEST_CALL,
  CHANNEL_TYPES,
  usageRecordedV1,
} from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner, verifyServiceToken } from '@tollgate/platform';
import { eventually, INFRASTRUCTURES, type FakeUpstream } from '@tollgate/testing';
import { userAccount } from '../../src/quota/quota-reservations';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { sseData, sseEventNames } from '../support/sse-text';
import { aChannelOn, aChatRequest as chat, costOf, PRICE } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

describe.each(INFRASTRUCTURES)('relay hot path on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-hot-path', { recordUsage: true });
  let upstream: FakeUpstream;
  let failing: FakeUpstream;
  /** Answers nothing for a minute: a client leaves before the first byte. */
  let waiting: FakeUpstream;
  let world: RelayWorld;
  let relay: Relay;
  let rich: TestKey;
  let gpt: string;
  let claude: string;
  let fallback: string;
  let held: string;
  /** Stands in for admin: records the auto-disable calls relay makes. */
  let admin: Server;
  const adminCalls: { url: string; token: string; body: unknown }[] = [];

  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    relay.post(path, headers, body);
  const eventsOf = (key: TestKey) => harness.usageOf(key.userId);

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
    failing = await harness.upstream({ failRate: 1, failStatus: 503 });
    waiting = await harness.upstream({ latencyMs: 60_000 });
    admin = createServer((req: IncomingMessage, res) => {
      let text = '';
      req.on('data', (piece: Buffer) => (text += piece.toString()));
      req.on('end', () => {
        adminCalls.push({
          url: req.url ?? '',
          token: String(req.headers[SERVICE_TOKEN_HEADER] ?? ''),
          body: JSON.parse(text) as unknown,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
      });
    });
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    gpt = world.model('gpt');
    claude = world.model('claude');
    fallback = world.model('fallback');
    held = world.model('held');
    relay = await harness.start({
      env: {
        RELAY_QUOTA_HOLD_MS: '60000',
        ADMIN_URL: `http://127.0.0.1:${(admin.address() as AddressInfo).port}`,
      },
    });
    await Promise.all([world.price(gpt), world.price(claude), world.price(fallback), world.price(held)]);
    await world.channel(aChannelOn(waiting, [held], { model_mapping: { [held]: 'gpt-4o-mini' } }));
    await world.channel(aChannelOn(upstream, [gpt], { model_mapping: { [gpt]: 'gpt-4o-mini' } }));
    await world.channel(
      aChannelOn(upstream, [claude], {
        type: CHANNEL_TYPES.anthropic,
        model_mapping: { [claude]: 'claude-sonnet-5-5' },
      }),
    );
    // The better channel for `fallback` always fails with 503; the worse one works.
    await world.channel(aChannelOn(failing, [fallback], { priority: 10 }));
    await world.channel(
      aChannelOn(upstream, [fallback], {
        type: CHANNEL_TYPES.gemini,
        priority: 0,
        model_mapping: { [fallback]: 'gemini-2.5-flash' },
      }),
    );
    rich = await harness.readyKey([relay]);
    await eventually('relay to serve the run’s models', async () => {
      const res = await fetch(`${relay.url}/v1/models`, { headers: bearer(rich) });
      const body = (await res.json()) as { data?: { id: string }[] };
      return body.data?.length === 4 ? true : undefined;
    });
  });

  afterAll(async () => {
    await harness.close();
    await new Promise((resolve) => admin?.close(resolve));
  });

  it('answers a plain chat completion, charges its usage once and holds the charge in kv', async () => {
    const key = await harness.readyKey([relay], 1_000_000);
    const res = await post('/v1/chat/completions', bearer(key), chat(gpt));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(body.choices[0]!.message.content.length).toBeGreaterThan(0);
    const [event] = await harness.usageEvents(key.userId);
    expect(usageRecordedV1.parse(event)).toMatchObject({
      model: gpt,
      upstream_model: 'gpt-4o-mini',
      status: 'success',
      is_stream: false,
      group: world.group,
      prompt_tokens: body.usage.prompt_tokens,
      completion_tokens: body.usage.completion_tokens,
      price: PRICE,
    });
    const expected = costOf(body.usage);
    expect(event!.quota).toBe(expected);
    // The call was served from a quota lease; once handed back (RELAY_QUOTA_LEASE_MS) only the charge stays held.
    await eventually('the lease to be handed back as a hold of the charge', async () =>
      (await harness.infra.runtime.kv.outstanding(userAccount(key.userId))) === expected ? true : undefined,
    );
  });

  it('streams chat with [DONE], and sends the usage chunk only to a client that asked for it', async () => {
    const quiet = await (
      await post('/v1/chat/completions', bearer(rich), chat(gpt, { stream: true }))
    ).text();
    const quietData = sseData(quiet);
    expect(quietData.at(-1)).toBe('[DONE]');
    expect(quietData.slice(0, -1).every((d) => !('usage' in JSON.parse(d)))).toBe(true);

    const asked = await post(
      '/v1/chat/completions',
      bearer(rich),
      chat(gpt, { stream: true, stream_options: { include_usage: true } }),
    );
    expect(asked.headers.get('content-type')).toContain('text/event-stream');
    const chunks = sseData(await asked.text())
      .slice(0, -1)
      .map((d) => JSON.parse(d) as { usage?: { completion_tokens: number } });
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(8);
  });

  it('serves an OpenAI client from an Anthropic channel, plain and streamed', async () => {
    const plain = await post('/v1/chat/completions', bearer(rich), chat(claude));
    expect(plain.status).toBe(200);
    expect(await plain.json()).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { role: 'assistant' } }],
    });
    const streamed = sseData(
      await (await post('/v1/chat/completions', bearer(rich), chat(claude, { stream: true }))).text(),
    );
    expect(streamed.at(-1)).toBe('[DONE]');
    expect(streamed.length).toBeGreaterThan(2);
  });

  it('serves an Anthropic client (x-api-key) from an OpenAI channel, plain and streamed', async () => {
    const body = { model: gpt, max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] };
    const plain = await post('/v1/messages', { 'x-api-key': rich.apiKey }, body);
    expect(plain.status).toBe(200);
    expect(await plain.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: gpt,
      stop_reason: expect.any(String),
    });
    const streamed = await (
      await post('/v1/messages', { 'x-api-key': rich.apiKey }, { ...body, stream: true })
    ).text();
    const names = sseEventNames(streamed);
    expect(names[0]).toBe('message_start');
    expect(names.at(-1)).toBe('message_stop');
    expect(names).toContain('content_block_delta');
  });

  it('serves a Gemini client (?key=, alt=sse) from an OpenAI channel', async () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      generationConfig: { maxOutputTokens: 16 },
    };
    const plain = await post(`/v1beta/models/${gpt}:generateContent?key=${rich.apiKey}`, {}, body);
    expect(plain.status).toBe(200);
    expect(await plain.json()).toMatchObject({
      candidates: [{ content: { role: 'model' } }],
      usageMetadata: expect.any(Object),
    });
    const streamed = await post(
      `/v1beta/models/${gpt}:streamGenerateContent?alt=sse`,
      { 'x-goog-api-key': rich.apiKey },
      body,
    );
    const objects = sseData(await streamed.text()).map((d) => JSON.parse(d) as { usageMetadata?: unknown });
    expect(objects.length).toBeGreaterThan(1);
    expect(objects.at(-1)?.usageMetadata).toBeDefined();
  });

  it('lists and gets the key’s models for a Gemini client in Gemini’s shape, paged', async () => {
    const list = await fetch(`${relay.url}/v1beta/models?key=${rich.apiKey}`);
    expect(list.status).toBe(200);
    const names = [claude, fallback, gpt, held].sort();
    expect(await list.json()).toEqual({
      models: names.map((name) => ({
        name: `models/${name}`,
        baseModelId: name,
        displayName: name,
        inputTokenLimit: 128_000,
        supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
      })),
    });

    const headers = { 'x-goog-api-key': rich.apiKey };
    const first = (await (await fetch(`${relay.url}/v1beta/models?pageSize=2`, { headers })).json()) as {
      models: { baseModelId: string }[];
      nextPageToken: string;
    };
    expect(first.models.map((m) => m.baseModelId)).toEqual(names.slice(0, 2));
    const rest = (await (
      await fetch(`${relay.url}/v1beta/models?pageSize=2&pageToken=${first.nextPageToken}`, { headers })
    ).json()) as { models: { baseModelId: string }[]; nextPageToken?: string };
    expect(rest.models.map((m) => m.baseModelId)).toEqual(names.slice(2));
    expect(rest.nextPageToken).toBeUndefined();

    const one = await fetch(`${relay.url}/v1beta/models/${gpt}`, { headers });
    expect(await one.json()).toMatchObject({ name: `models/${gpt}`, baseModelId: gpt });
    const unknown = await fetch(`${relay.url}/v1beta/models/no-such-model`, { headers });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
    const badKey = await fetch(`${relay.url}/v1beta/models?key=sk-nope`);
    expect(badKey.status).toBe(401);
    expect(await badKey.json()).toMatchObject({ error: { code: 401 } });
  });

  it('aborts the upstream call when the client leaves before its first byte, and charges nothing', async () => {
    const key = await harness.readyKey([relay], 1_000_000);
    const leaving = new AbortController();
    const call = fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify(chat(held)),
      signal: leaving.signal,
    }).catch(() => 'left');
    await eventually('the upstream to hold the call', async () =>
      waiting.stats().requests > 0 ? true : undefined,
    );
    leaving.abort();
    expect(await call).toBe('left');
    await eventually('the upstream to see the call aborted', async () =>
      waiting.stats().abortedRequests > 0 ? true : undefined,
    );
    await eventually('the reservation to be handed back', async () =>
      (await harness.infra.runtime.kv.outstanding(userAccount(key.userId))) === 0 ? true : undefined,
    );
    expect(harness.usageOf(key.userId)).toEqual([]);
  });

  it('retries a failing channel on the next one before anything reached the client', async () => {
    failing.resetStats();
    const res = await post('/v1/chat/completions', bearer(rich), chat(fallback));
    expect(res.status).toBe(200);
    expect(failing.stats().injectedFailures).toBeGreaterThan(0);
  });

  it("names the field an OpenAI client got wrong as the error's param, in OpenAI's spelling", async () => {
    const noRole = await post('/v1/chat/completions', bearer(rich), {
      model: gpt,
      messages: [{ role: 'user', content: 'Hi' }, { content: 'no role' }],
    });
    const zeroTokens = await post('/v1/chat/completions', bearer(rich), chat(gpt, { max_tokens: 0 }));

    expect(noRole.status).toBe(400);
    expect(await noRole.json()).toEqual({
      error: {
        message: 'Invalid request: messages.1.role: Required',
        type: 'invalid_request_error',
        param: 'messages[1].role',
        code: 'validation_failed',
      },
    });
    expect(await zeroTokens.json()).toMatchObject({
      error: { param: 'max_tokens', code: 'validation_failed' },
    });
  });

  it('refuses in each protocol’s shape: bad key 401, unknown model 404, model outside the key list 403', async () => {
    const openai = await post('/v1/chat/completions', { authorization: 'Bearer sk-nope' }, chat(gpt));
    expect(openai.status).toBe(401);
    expect(await openai.json()).toMatchObject({
      error: { code: 'invalid_api_key', type: expect.any(String) },
    });
    const anthropic = await post('/v1/messages', {}, { model: gpt, max_tokens: 1, messages: [] });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const gemini = await post(`/v1beta/models/${gpt}:generateContent`, {}, {});
    expect(await gemini.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });

    const unknown = await post('/v1/chat/completions', bearer(rich), chat(`nope-${world.runId}`));
    expect(unknown.status).toBe(404);
    const limited = await harness.readyKey([relay], 1_000_000, {
      model_limits_enabled: true,
      model_limits: [claude],
    });
    expect((await post('/v1/chat/completions', bearer(limited), chat(gpt))).status).toBe(403);
  });

  it('answers 402 without calling upstream when the balance cannot cover the estimate', async () => {
    const poor = await harness.readyKey([relay], 1);
    upstream.resetStats();
    const res = await post('/v1/chat/completions', bearer(poor), chat(gpt));
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ error: { code: 'insufficient_quota' } });
    expect(upstream.stats().requests).toBe(0);
  });

  it('passes embeddings through and charges the reported usage', async () => {
    const res = await post('/v1/embeddings', bearer(rich), { model: gpt, input: 'Hello there' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { embedding: number[] }[]; usage: { prompt_tokens: number } };
    expect(body.data[0]!.embedding.length).toBeGreaterThan(0);
    await eventually('the embeddings usage event', async () =>
      eventsOf(rich).find((e) => e.completion_tokens === 0 && e.prompt_tokens === body.usage.prompt_tokens),
    );
  });

  it('tests a channel for admin with a service token, and refuses a caller without one', async () => {
    const channel = await world.channel(aChannelOn(upstream, ['gpt-4o-mini']));
    const url = `${relay.url}${CHANNEL_TEST_CALL.path}`;
    const token = await new ServiceTokenSigner(harness.secret, CHANNEL_TEST_CALL.audience).token();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: token },
      body: JSON.stringify({ channel }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      success: true,
      model: 'gpt-4o-mini',
      time_ms: expect.any(Number),
    });
    const broken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: token },
      body: JSON.stringify({ channel: { ...channel, base_url: failing.url } }),
    });
    expect(await broken.json()).toMatchObject({ success: false });
    const anonymous = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
  });

  it('lists the models a channel’s upstream offers for admin, with a service token of that call only', async () => {
    const channel = await world.channel(aChannelOn(upstream, ['gpt-4o-mini']));
    const url = `${relay.url}${CHANNEL_MODELS_CALL.path}`;
    const ask = async (body: unknown, audience: string = CHANNEL_MODELS_CALL.audience) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SERVICE_TOKEN_HEADER]: await new ServiceTokenSigner(harness.secret, audience).token(),
        },
        body: JSON.stringify(body),
      });

    const listed = await ask({ channel });
    const broken = await ask({ channel: { ...channel, base_url: failing.url } });
    const azure = await ask({ channel: { ...channel, type: CHANNEL_TYPES.azure } });
    const otherCall = await ask({ channel }, CHANNEL_TEST_CALL.audience);
    const invalid = await ask({ channel: { id: 'x' } });

    expect(listed.status).toBe(200);
    const answer = (await listed.json()) as { success: boolean; models: string[] };
    expect(answer.success).toBe(true);
    expect(answer.models.length).toBeGreaterThan(0);
    expect(answer.models).toEqual([...answer.models].sort());
    expect(answer.models).toContain('gpt-4o-mini');
    expect(await broken.json()).toMatchObject({ success: false, models: [] });
    expect(await azure.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('no model list'),
    });
    expect(otherCall.status).toBe(401);
    expect(invalid.status).toBe(400);
  });

  it('streams completions and responses through, hiding the forced usage chunk and billing from usage', async () => {
    const completions = await post('/v1/completions', bearer(rich), {
      model: gpt,
      prompt: 'Hello',
      max_tokens: 8,
      stream: true,
    });
    const completionData = sseData(await completions.text());
    expect(completionData.at(-1)).toBe('[DONE]');
    expect(completionData.slice(0, -1).every((d) => !('usage' in JSON.parse(d)))).toBe(true);

    const responses = await post('/v1/responses', bearer(rich), { model: gpt, input: 'Hello', stream: true });
    expect(responses.headers.get('content-type')).toContain('text/event-stream');
    expect(sseEventNames(await responses.text())).toContain('response.completed');
    await eventually('both streams billed from their usage', async () =>
      eventsOf(rich).filter((e) => e.is_stream && e.completion_tokens > 0).length >= 2 ? true : undefined,
    );
  });

  it('passes speech audio through as bytes', async () => {
    const res = await post('/v1/audio/speech', bearer(rich), { model: gpt, input: 'Hello', voice: 'alloy' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^audio\//);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('auto-disables a channel whose upstream key is refused, through admin with a service token', async () => {
    const banned = world.model('banned');
    await world.price(banned);
    const channel = await world.channel(
      aChannelOn(upstream, [banned], { key: 'sk-wrong-key', auto_ban: true }),
    );
    await eventually('the channel in relay', async () => {
      const res = await post('/v1/chat/completions', bearer(rich), chat(banned));
      return res.status === 502 ? true : undefined;
    });
    const call = await eventually('the auto-disable call', async () =>
      adminCalls.find((c) => c.url === `/internal/channels/${channel.id}/auto-disable`),
    );
    await expect(
      verifyServiceToken(call.token, harness.secret, CHANNEL_AUTO_DISABLE_CALL.audience),
    ).resolves.toBeUndefined();
    expect(call.body).toMatchObject({ reason: expect.any(String), status_code: 401 });
  });

  it('exposes its metrics with bounded labels', async () => {
    const text = await (await fetch(`${relay.url}/metrics`)).text();
    expect(text).toMatch(/tollgate_relay_requests_total\{[^}]*protocol="openai"[^}]*outcome="success"/);
    expect(text).toContain('tollgate_relay_upstream_latency_seconds');
    expect(text).toContain('tollgate_refused_reservations_total');
  });
});
