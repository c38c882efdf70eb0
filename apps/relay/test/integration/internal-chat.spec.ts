import { randomBytes } from 'node:crypto';
import {
  CHAT_CHARGE_EVENT,
  CHAT_LABEL_HEADER,
  CHAT_USER_HEADER,
  chatChargeSchema,
  RELAY_CHAT_COMPLETION_CALL,
  RELAY_CHAT_MODELS_CALL,
  Role,
  TOPICS,
  type Envelope,
  type UsageRecorded,
} from '@tollgate/contracts';
import {
  INTERNAL_IDENTITY_HEADER,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
  signInternalToken,
} from '@tollgate/platform';
import type { RunningService } from '@tollgate/runtime';
import {
  eventually,
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  startFakeUpstream,
  TopicRecorder,
  waitUntilReady,
  type FakeUpstream,
  type TestInfrastructure,
} from '@tollgate/testing';
import { startRelay } from '../../src';
import { RelayWorld } from '../support/relay-world';
import { sseData, sseEventNames } from '../support/sse-text';

jest.setTimeout(90_000);

/** The chat service's way in: a service token for relay's chat audience and the user in a header. */
describe.each(INFRASTRUCTURES)('relay internal chat calls on %s infrastructure', (kind) => {
  const secret = randomBytes(32).toString('hex');
  let infra: TestInfrastructure;
  let world: RelayWorld;
  let upstream: FakeUpstream;
  let slow: FakeUpstream;
  let relay: RunningService;
  let usage: TopicRecorder;
  let gpt: string;
  let slowModel: string;
  let otherGroupModel: string;
  let chatToken: string;

  const chatCall = (
    userId: number,
    body: unknown,
    headers: Record<string, string> = {},
    signal?: AbortSignal,
  ) =>
    fetch(`${relay.url}${RELAY_CHAT_COMPLETION_CALL.path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SERVICE_TOKEN_HEADER]: chatToken,
        [CHAT_USER_HEADER]: String(userId),
        [CHAT_LABEL_HEADER]: '42',
        ...headers,
      },
      body: JSON.stringify(body),
      signal,
    });
  const ask = (model: string) => ({
    model,
    messages: [{ role: 'user', content: 'Hello there' }],
    max_tokens: 16,
  });
  const eventsOf = (userId: number) => usage.values<UsageRecorded>((event) => event.user_id === userId);
  const userReady = (userId: number) =>
    eventually(`user ${userId} and balance in relay`, async () => {
      const root = await signInternalToken({ userId: 1, role: Role.Root, via: 'session' }, secret);
      const read = (table: string) =>
        getJson<Envelope<{ present: boolean }>>(`${relay.url}/internal/read-models/${table}/${userId}`, {
          [INTERNAL_IDENTITY_HEADER]: root,
        });
      const [user, balance] = await Promise.all([read('users'), read('balances')]);
      return user.body.data?.present && balance.body.data?.present ? true : undefined;
    });

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'relay-internal-chat', { database: false });
    world = new RelayWorld(infra.runtime.bus, infra.runId);
    upstream = await startFakeUpstream({ completionTokens: 8, chunks: 4 });
    slow = await startFakeUpstream({ completionTokens: 200, chunks: 200, chunkMs: 20 });
    gpt = world.model('gpt');
    slowModel = world.model('slow');
    otherGroupModel = world.model('other');
    relay = await startRelay(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: world.encryptionKey,
      },
      infra.runtime,
    );
    chatToken = await new ServiceTokenSigner(secret, RELAY_CHAT_COMPLETION_CALL.audience).token();
    usage = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.usageRecorded.name,
      `relay-it-chat-${infra.runId}`,
    );
    await Promise.all([world.price(gpt), world.price(slowModel), world.price(otherGroupModel)]);
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [gpt],
      model_mapping: { [gpt]: 'gpt-4o-mini' },
    });
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: slow.url,
      models: [slowModel],
      model_mapping: { [slowModel]: 'gpt-4o-mini' },
    });
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [otherGroupModel],
      groups: ['someone-else'],
    });
    await waitUntilReady(relay.url);
  });

  afterAll(async () => {
    await usage?.stop();
    await relay?.close();
    await upstream?.close();
    await slow?.close();
    await infra?.close();
  });

  it("streams an answer for the user, ends with the charge, and records it with no key and the chat's label", async () => {
    const userId = await world.webUser(5_000_000);
    await userReady(userId);
    const res = await chatCall(userId, ask(gpt), { 'x-request-id': `chat-answer-${userId}` });
    expect(res.status).toBe(200);
    const body = await res.text();
    const data = sseData(body);
    expect(data.at(-1)).toBe('[DONE]');
    expect(sseEventNames(body)).toEqual([CHAT_CHARGE_EVENT]);
    const charge = chatChargeSchema.parse(JSON.parse(data.at(-2)!));
    expect(charge.completion_tokens).toBe(8);
    const [event] = await eventually('the usage event', async () =>
      eventsOf(userId).length ? eventsOf(userId) : undefined,
    );
    expect(event).toMatchObject({
      token_id: null,
      token_name: 'chat #42',
      request_id: `chat-answer-${userId}`,
      quota: charge.quota,
      prompt_tokens: charge.prompt_tokens,
      completion_tokens: charge.completion_tokens,
      status: 'success',
      is_stream: true,
    });
  });

  it('refuses a call without a service token, or with one for another audience', async () => {
    const userId = await world.webUser(5_000_000);
    await userReady(userId);
    expect((await chatCall(userId, ask(gpt), { [SERVICE_TOKEN_HEADER]: '' })).status).toBe(401);
    const wrong = await new ServiceTokenSigner(secret, 'relay:channel-test').token();
    const refused = await chatCall(userId, ask(gpt), { [SERVICE_TOKEN_HEADER]: wrong });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/service token/);
  });

  it('refuses an unknown user, and a user whose balance cannot pay, before anything is streamed', async () => {
    expect((await chatCall(1_999_999_999, ask(gpt))).status).toBe(401);
    const poor = await world.webUser(0);
    await userReady(poor);
    const res = await chatCall(poor, ask(gpt));
    expect(res.status).toBe(402);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('charges only what was generated when the chat service stops the answer mid-stream', async () => {
    const userId = await world.webUser(50_000_000);
    await userReady(userId);
    const stop = new AbortController();
    const res = await chatCall(userId, { ...ask(slowModel), max_tokens: 400 }, {}, stop.signal);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let seen = '';
    while (sseData(seen).filter((d) => d.includes('"content"')).length < 5) {
      const { value } = await reader.read();
      seen += Buffer.from(value!).toString();
    }
    stop.abort();
    const [event] = await eventually('the usage event of the stopped answer', async () =>
      eventsOf(userId).length ? eventsOf(userId) : undefined,
    );
    expect(event!.status).toBe('client_aborted');
    expect(event!.completion_tokens).toBeGreaterThan(0);
    expect(event!.completion_tokens).toBeLessThan(200);
  });

  it("lists the models a channel serves for the user's group", async () => {
    const userId = await world.webUser(1_000);
    await userReady(userId);
    const res = await fetch(`${relay.url}${RELAY_CHAT_MODELS_CALL.path}`, {
      headers: { [SERVICE_TOKEN_HEADER]: chatToken, [CHAT_USER_HEADER]: String(userId) },
    });
    expect(res.status).toBe(200);
    const { models } = (await res.json()) as { models: string[] };
    expect(models).toEqual(expect.arrayContaining([gpt, slowModel]));
    expect(models).not.toContain(otherGroupModel);
  });
});
