import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import { Kafka, logLevel } from 'kafkajs';
import OpenAI from 'openai';
import { Client } from 'pg';
import {
  ACCOUNT_SET_QUOTA_CALL,
  ALL_TOPICS,
  Role,
  servicePath,
  TOPICS,
  type UsageRecorded,
} from '@tollgate/contracts';
import { RedisKvStore } from '@tollgate/kv';
import { startDistributed, type DistributedPlatform } from '@tollgate/launcher';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner, signInternalToken } from '@tollgate/platform';
import {
  eventually,
  newRunId,
  silentWav,
  startFakeUpstream,
  TopicRecorder,
  type FakeUpstream,
} from '@tollgate/testing';
import { RelayWorld, type TestKey } from '../apps/relay/test/support/relay-world';
import { infrastructureEnv, relaySpoolDir, REPO_ROOT, runEventBus, runTopicPrefix } from './support/e2e-env';

jest.setTimeout(240_000);

const ANTHROPIC_CHANNEL = 14;
const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const run = promisify(execFile);

/**
 * The hot path as production runs it: gateway, relay and billing as separate processes on real Kafka,
 * Redis and PostgreSQL, called with the official SDKs through the gateway, against fake upstreams.
 * Keys, users, channels and prices are published on their topics as auth, admin and billing would;
 * balances are set through billing, which also charges every usage.recorded event.
 */
describe('relay through the gateway on distributed infrastructure', () => {
  const infra = infrastructureEnv();
  const id = newRunId();
  const secret = randomBytes(32).toString('hex');
  const logDir = join(REPO_ROOT, 'reports', 'e2e-logs', `relay-${id}`);
  const canary = `canary-${randomUUID()}`;
  const spool = relaySpoolDir();
  const bus = runEventBus(id, `e2e-relay-${id}`);
  const kv = new RedisKvStore(infra.redisUrl);
  const world = new RelayWorld(bus, id);
  const gpt = world.model('gpt');
  const claude = world.model('claude');
  const slowModel = world.model('slow');
  let platform: DistributedPlatform;
  let upstream: FakeUpstream;
  let slow: FakeUpstream;
  let usage: TopicRecorder;
  let billingDb: Client;
  let rich: TestKey;

  const v1 = () => `${platform.url}/v1`;
  const openai = (key: TestKey) => new OpenAI({ apiKey: key.apiKey, baseURL: v1(), maxRetries: 0 });
  const anthropic = (key: TestKey) =>
    new Anthropic({ apiKey: key.apiKey, baseURL: platform.url, maxRetries: 0 });
  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${platform.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const eventsOf = (key: TestKey): UsageRecorded[] =>
    usage.values<UsageRecorded>((event) => event.user_id === key.userId);

  /** Billing sets the balance (one ledger adjustment), publishes it, and relay has it. */
  async function fundedKey(quota: number, token: Parameters<RelayWorld['key']>[1] = {}): Promise<TestKey> {
    // Setting the quota opens the account when billing has not seen the user yet.
    const key = await world.key(undefined, token);
    const signer = new ServiceTokenSigner(secret, ACCOUNT_SET_QUOTA_CALL.audience);
    const res = await fetch(
      `${platform.services.billing.url}${servicePath(ACCOUNT_SET_QUOTA_CALL, { userId: key.userId })}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: await signer.token() },
        body: JSON.stringify({ quota, idempotency_key: `e2e-${key.userId}`, actor_id: 1 }),
      },
    );
    expect(res.status).toBe(200);
    // Relay must have the balance billing published after the adjustment, not the empty account's.
    const { rows } = await billingDb.query<{ version: string }>(
      'select version from accounts where user_id = $1',
      [key.userId],
    );
    const version = Number(rows[0]!.version);
    const root = await signInternalToken({ userId: 1, role: Role.Root, via: 'session' }, secret);
    await eventually(
      'relay to see the balance and the key',
      async () => {
        const balance = await fetch(
          `${platform.services.relay.url}/internal/read-models/balances/${key.userId}`,
          {
            headers: { 'x-tollgate-identity': root },
          },
        );
        const entry = (await balance.json()) as { data?: { present: boolean; version: number | null } };
        if (!entry.data?.present || (entry.data.version ?? -1) < version) return undefined;
        const models = await fetch(`${v1()}/models`, { headers: { authorization: `Bearer ${key.apiKey}` } });
        return models.status === 200 ? true : undefined;
      },
      30_000,
    );
    return key;
  }

  beforeAll(async () => {
    upstream = await startFakeUpstream({ completionTokens: 8, chunks: 4 });
    slow = await startFakeUpstream({ completionTokens: 60, chunks: 60, chunkMs: 50 });
    platform = await startDistributed({
      repoRoot: REPO_ROOT,
      env: {
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: world.encryptionKey,
        LOG_LEVEL: 'info',
        RELAY_UPLOAD_DIR: logDir,
        RELAY_USAGE_SPOOL_DIR: spool.dir,
        KAFKA_TOPIC_PREFIX: runTopicPrefix(id),
        // Billing never reaches the internet in tests.
        CBR_DAILY_URL: 'http://127.0.0.1:9/XML_daily.asp',
      },
      ...infra,
      databasePrefix: `e2e_${id}`,
      logDir,
      skip: ['auth', 'chat', 'admin'],
    });
    billingDb = new Client({ connectionString: platform.databaseUrls.billing });
    await billingDb.connect();
    usage = await TopicRecorder.start(bus, TOPICS.usageRecorded.name, `e2e-relay-usage-${id}`);
    await Promise.all([gpt, claude, slowModel].map((model) => world.price(model)));
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [gpt],
      model_mapping: { [gpt]: 'gpt-4o-mini' },
    });
    await world.channel({
      type: ANTHROPIC_CHANNEL,
      key: 'sk-ant-fake-anthropic-key',
      base_url: upstream.url,
      models: [claude],
      model_mapping: { [claude]: 'claude-sonnet-5-5' },
    });
    await world.channel({ key: 'sk-fake-openai-key', base_url: slow.url, models: [slowModel] });
    rich = await fundedKey(500_000_000);
  });

  afterAll(async () => {
    await usage?.stop();
    await billingDb?.end();
    await platform?.stop();
    await Promise.all([upstream?.close(), slow?.close()]);
    spool.remove();
    await bus.close();
    await kv.close();
  });

  it('serves the OpenAI SDK plainly and streamed, with the usage chunk when asked', async () => {
    const client = openai(rich);
    const plain = await client.chat.completions.create({
      model: gpt,
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 16,
    });
    expect(plain.choices[0]?.message.content).toBeTruthy();
    expect(plain.usage?.completion_tokens).toBe(8);

    const stream = await client.chat.completions.create({
      model: gpt,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let completionTokens = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(completionTokens).toBe(8);
  });

  it('tells a key what it spent (GET /v1/key, the billing endpoints) and finds a call by its answer id', async () => {
    const key = await fundedKey(10_000_000);
    const client = openai(key);
    const answer = await client.chat.completions.create({
      model: gpt,
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 16,
    });
    const cost = (answer.usage as unknown as { cost_quota: number }).cost_quota;
    expect(cost).toBeGreaterThan(0);
    const get = async (path: string, apiKey = key.apiKey) => {
      const res = await fetch(`${v1()}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    // Billing logs the call once it has consumed usage.recorded.
    const generation = await eventually('the call in the usage log', async () => {
      const found = await get(`/generation?id=${encodeURIComponent(answer.id)}`);
      return found.status === 200 ? found.body : undefined;
    });
    expect(generation['data']).toMatchObject({
      id: answer.id,
      model: gpt,
      tokens_prompt: answer.usage!.prompt_tokens,
      tokens_completion: answer.usage!.completion_tokens,
      cost_quota: cost,
      streamed: false,
      status: 'success',
      finish_reason: 'stop',
    });
    expect(JSON.stringify(generation)).not.toContain('Hello');
    // Another key's call is not this key's to read.
    expect((await get(`/generation?id=${encodeURIComponent(answer.id)}`, rich.apiKey)).status).toBe(404);

    const described = await eventually('the day statistics in /v1/key', async () => {
      const found = await get('/key');
      const data = found.body['data'] as { usage_today: number } | undefined;
      return data !== undefined && data.usage_today === cost ? data : undefined;
    });
    expect(described).toMatchObject({ usage_month: cost, requests_today: 1, limit_remaining: null });
    const { subscription, spent } = await eventually('the charge in the published balance', async () => {
      const sub = (await get('/dashboard/billing/subscription')).body as { hard_limit_usd: number };
      const used = (await get('/dashboard/billing/usage')).body as { total_usage: number };
      return used.total_usage > 0 ? { subscription: sub, spent: used } : undefined;
    });
    expect(spent.total_usage).toBeCloseTo((cost * 100) / 500_000, 9);
    // What a balance checker computes as left: the balance after the charge.
    expect(subscription.hard_limit_usd - spent.total_usage / 100).toBeCloseTo(
      (10_000_000 - cost) / 500_000,
      9,
    );
  });

  it("tells /v1/generation an Anthropic call's prompt-cache writes for 5 minutes and for an hour, as its client was told them", async () => {
    const key = await fundedKey(50_000_000);
    // Long enough for Anthropic to cache (1024 tokens and more), and this run's own.
    const reference = (name: string) =>
      Array.from({ length: 600 }, (_, line) => `reference ${name}-${id} line ${line}`).join('\n');
    const message = await anthropic(key).messages.create({
      model: claude,
      max_tokens: 16,
      system: [
        { type: 'text', text: reference('hour'), cache_control: { type: 'ephemeral', ttl: '1h' } },
        { type: 'text', text: reference('minutes'), cache_control: { type: 'ephemeral' } },
      ],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const told = message.usage;
    const hour = told.cache_creation?.ephemeral_1h_input_tokens ?? 0;
    const minutes = told.cache_creation?.ephemeral_5m_input_tokens ?? 0;
    expect(hour).toBeGreaterThan(1000);
    expect(minutes).toBeGreaterThan(1000);
    expect(told.cache_creation_input_tokens).toBe(hour + minutes);

    const generation = await eventually('the call in the usage log', async () => {
      const res = await fetch(`${v1()}/generation?id=${encodeURIComponent(message.id)}`, {
        headers: { authorization: `Bearer ${key.apiKey}` },
      });
      return res.status === 200 ? ((await res.json()) as { data: Record<string, unknown> }) : undefined;
    });
    expect(generation.data).toMatchObject({
      id: message.id,
      model: claude,
      tokens_prompt: told.input_tokens + hour + minutes + (told.cache_read_input_tokens ?? 0),
      tokens_cached: told.cache_read_input_tokens ?? 0,
      tokens_cache_write_5m: minutes,
      tokens_cache_write_1h: hour,
    });
  });

  it('serves the OpenAI SDK from an Anthropic channel, tool calls included', async () => {
    const answer = await openai(rich).chat.completions.create({
      model: claude,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: WEATHER_TOOL }],
      tool_choice: 'required',
    });
    const call = answer.choices[0]?.message.tool_calls?.[0];
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' ? call.function.name : undefined).toBe('get_weather');
    expect(JSON.parse(call?.type === 'function' ? call.function.arguments : '{}')).toHaveProperty('city');
  });

  it('serves the Anthropic SDK from an OpenAI channel, plain, streamed and with a tool', async () => {
    const client = anthropic(rich);
    const message = await client.messages.create({
      model: gpt,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message.content[0]?.type).toBe('text');
    expect(message.usage.output_tokens).toBe(8);

    const stream = client.messages.stream({
      model: gpt,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]?.type).toBe('text');

    const tool = await client.messages.create({
      model: gpt,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [
        {
          name: WEATHER_TOOL.name,
          description: WEATHER_TOOL.description,
          input_schema: WEATHER_TOOL.parameters as Anthropic.Tool.InputSchema,
        },
      ],
      tool_choice: { type: 'any' },
    });
    expect(tool.stop_reason).toBe('tool_use');
    expect(tool.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'get_weather' });
  });

  it('serves a Gemini client (raw fetch) from an OpenAI channel, with a function call', async () => {
    const res = await post(
      `/v1beta/models/${gpt}:generateContent`,
      { 'x-goog-api-key': rich.apiKey },
      {
        contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
        tools: [{ functionDeclarations: [WEATHER_TOOL] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
      },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      candidates: { content: { parts: { functionCall?: { name: string } }[] } }[];
    };
    expect(body.candidates[0]?.content.parts.find((p) => p.functionCall)?.functionCall?.name).toBe(
      'get_weather',
    );

    const streamed = await post(
      `/v1beta/models/${gpt}:streamGenerateContent?alt=sse&key=${rich.apiKey}`,
      {},
      {
        contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      },
    );
    expect((await streamed.text()).match(/^data: /gm)?.length).toBeGreaterThan(1);
  });

  it('aborts the upstream when the client cuts a stream, and charges what was generated', async () => {
    const key = await fundedKey(50_000_000);
    const stream = await openai(key).chat.completions.create({
      model: slowModel,
      messages: [{ role: 'user', content: 'Tell me a long story' }],
      stream: true,
    });
    let chunks = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta.content) chunks += 1;
      if (chunks === 3) break;
    }
    const [event] = await eventually('the cut stream’s usage event', async () =>
      eventsOf(key).length > 0 ? eventsOf(key) : undefined,
    );
    expect(event).toMatchObject({ status: 'client_aborted', is_stream: true });
    expect(event!.completion_tokens).toBeGreaterThan(0);
    expect(event!.completion_tokens).toBeLessThan(60);
    expect(event!.quota).toBeGreaterThan(0);
    await eventually('the fake upstream to see the abort', async () =>
      slow.stats().abortedStreams > 0 ? true : undefined,
    );
  });

  it('never overdraws a balance that covers 20 calls under 200 concurrent ones, and charges each served call once', async () => {
    const request = { model: gpt, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 8 };
    const probe = await fundedKey(50_000_000);
    expect(
      (await post('/v1/chat/completions', { authorization: `Bearer ${probe.apiKey}` }, request)).status,
    ).toBe(200);
    const [probeEvent] = await eventually('the probe’s usage event', async () =>
      eventsOf(probe).length > 0 ? eventsOf(probe) : undefined,
    );
    const balance = 20 * probeEvent!.quota;
    const key = await fundedKey(balance);

    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        post('/v1/chat/completions', { authorization: `Bearer ${key.apiKey}` }, request).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      ),
    );
    const served = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 402)).toEqual([]);
    expect(served).toBeGreaterThanOrEqual(1);
    expect(served).toBeLessThanOrEqual(20);

    const events = await eventually('one usage event per served call', async () =>
      eventsOf(key).length >= served ? eventsOf(key) : undefined,
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eventsOf(key)).toHaveLength(served);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(served);
    const charged = events.reduce((sum, e) => sum + e.quota, 0);
    expect(charged).toBeLessThanOrEqual(balance);
    await eventually('the quota leases to be handed back as holds of the charges', async () =>
      (await kv.outstanding(`user:${key.userId}`)) === charged ? true : undefined,
    );
  });

  it('writes a canary sent through every endpoint to no log, topic, database or data file', async () => {
    const auth = { authorization: `Bearer ${rich.apiKey}` };
    const say = `Please repeat ${canary}`;
    const calls: [string, Record<string, string>, unknown][] = [
      ['/v1/chat/completions', auth, { model: gpt, messages: [{ role: 'user', content: say }] }],
      [
        '/v1/chat/completions',
        auth,
        {
          model: claude,
          stream: true,
          messages: [
            { role: 'system', content: say },
            { role: 'user', content: say },
          ],
        },
      ],
      [
        '/v1/messages',
        { 'x-api-key': rich.apiKey },
        { model: gpt, max_tokens: 16, system: say, messages: [{ role: 'user', content: say }] },
      ],
      [
        '/v1/messages',
        { 'x-api-key': rich.apiKey },
        { model: claude, max_tokens: 16, stream: true, messages: [{ role: 'user', content: say }] },
      ],
      [
        `/v1beta/models/${gpt}:generateContent`,
        { 'x-goog-api-key': rich.apiKey },
        { contents: [{ parts: [{ text: say }] }] },
      ],
      [
        `/v1beta/models/${gpt}:streamGenerateContent?alt=sse`,
        { 'x-goog-api-key': rich.apiKey },
        { contents: [{ parts: [{ text: say }] }] },
      ],
      ['/v1/completions', auth, { model: gpt, prompt: say, max_tokens: 8 }],
      ['/v1/embeddings', auth, { model: gpt, input: say }],
      ['/v1/responses', auth, { model: gpt, input: say }],
      ['/v1/images/generations', auth, { model: gpt, prompt: say }],
      ['/v1/audio/speech', auth, { model: gpt, input: say, voice: 'alloy' }],
      // Refused calls carry the canary too: an error path must not log the body either.
      [
        '/v1/chat/completions',
        auth,
        { model: `${canary}-model`, messages: [{ role: 'user', content: say }] },
      ],
      ['/v1/chat/completions', { authorization: `Bearer sk-${canary}` }, { model: gpt, messages: [] }],
    ];
    const before = eventsOf(rich).length;
    for (const [path, headers, body] of calls) {
      const res = await post(path, headers, body);
      await res.arrayBuffer();
      expect(res.status).toBeLessThan(500);
    }
    // An audio upload larger than the gateway's JSON limit (10 MiB), the canary in its prompt, its
    // file name and its bytes: the relay spools it to RELAY_UPLOAD_DIR (the log directory here) and
    // must leave nothing there.
    const wav = silentWav(700);
    wav.write(canary, 44, 'ascii');
    const form = new FormData();
    form.append('file', new Blob([wav], { type: 'audio/wav' }), `${canary}.wav`);
    form.append('model', gpt);
    form.append('prompt', say);
    const transcribed = await fetch(`${v1()}/audio/transcriptions`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    expect(transcribed.status).toBe(200);
    expect(((await transcribed.json()) as { text: string }).text).toBeTruthy();
    // Twelve calls were served; once their events are out, billing has had them to write.
    await eventually('the canary calls to be recorded', async () =>
      eventsOf(rich).length >= before + 12 ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 2_000));

    const files = [logDir, join(REPO_ROOT, 'data')].filter((dir) => existsSync(dir));
    const grep = await run('grep', ['-rlF', canary, ...files]).catch(
      (error: { code?: number; stdout?: string }) => {
        if (error.code === 1) return { stdout: '' };
        throw error;
      },
    );
    expect(grep.stdout).toBe('');
    expect(await tablesContaining(billingDb, canary)).toEqual([]);
    expect(await topicsContaining(infra.kafkaBrokers.split(','), id, canary)).toEqual([]);
  });
});

/** Every table of the database whose rows, as text, contain the needle. */
async function tablesContaining(db: Client, needle: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'",
  );
  const hits: string[] = [];
  for (const { name } of rows) {
    const found = await db.query(`select 1 from ${name} t where t::text like $1 limit 1`, [`%${needle}%`]);
    if ((found.rowCount ?? 0) > 0) hits.push(name);
  }
  return hits;
}

/**
 * The run's topics (and their dead-letter topics) holding a record whose key, value or headers contain
 * the needle: the platform's names with the run's prefix, as the broker holds them.
 */
async function topicsContaining(brokers: string[], runId: string, needle: string): Promise<string[]> {
  const kafka = new Kafka({ clientId: `e2e-canary-${runId}`, brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const existing = new Set(await admin.listTopics());
  const prefix = runTopicPrefix(runId);
  const topics = ALL_TOPICS.flatMap((t) => [t.name, `${t.name}.dlq`])
    .map((t) => `${prefix}${t}`)
    .filter((t) => existing.has(t));
  const pending = new Map<string, bigint>();
  for (const topic of topics) {
    for (const { partition, high, low } of await admin.fetchTopicOffsets(topic)) {
      if (BigInt(high) > BigInt(low)) pending.set(`${topic}/${partition}`, BigInt(high));
    }
  }
  await admin.disconnect();
  // Looking in topics the run does not have would find the canary nowhere and pass.
  const usageTopic = `${prefix}${TOPICS.usageRecorded.name}`;
  if (!existing.has(usageTopic)) throw new Error(`no ${usageTopic} on the broker: not the run's topics`);
  const hits = new Set<string>();
  if (pending.size === 0) return [];
  const consumer = kafka.consumer({ groupId: `e2e-canary-${runId}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`topics not read to the end: ${[...pending.keys()].join(', ')}`)),
      60_000,
    );
    void consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const headers = Object.values(message.headers ?? {}).map((v) => String(v));
        const text = [message.key?.toString(), message.value?.toString(), ...headers].join('\n');
        if (text.includes(needle)) hits.add(topic);
        const slot = `${topic}/${partition}`;
        const end = pending.get(slot);
        if (end !== undefined && BigInt(message.offset) + 1n >= end) pending.delete(slot);
        if (pending.size === 0) {
          clearTimeout(timer);
          resolve();
        }
      },
    });
  });
  await consumer.disconnect();
  return [...hits];
}
