import {
  chargeQuota,
  CHAT_CHARGE_EVENT,
  CHAT_LABEL_HEADER,
  CHAT_USER_HEADER,
  chatChargeSchema,
  RELAY_CHAT_COMPLETION_CALL,
  RELAY_CHAT_MODELS_CALL,
} from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
import { INFRASTRUCTURES } from '@tollgate/testing';
import type { RelayWorld } from '../support/relay-world';
import { sseData, sseEventNames } from '../support/sse-text';
import { aChannelOn, aChatRequest as ask } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** The chat service's way in: a service token for relay's chat audience and the user in a header. */
describe.each(INFRASTRUCTURES)('relay internal chat calls on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-internal-chat', { recordUsage: true });
  let world: RelayWorld;
  let relay: Relay;
  let gpt: string;
  let slowModel: string;
  let otherGroupModel: string;
  let longModel: string;
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
  const webUser = (balance: number) => harness.readyWebUser(relay, balance);

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    const upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
    const slow = await harness.upstream({ completionTokens: 200, chunks: 200, chunkMs: 20 });
    const long = await harness.upstream({ completionTokens: 5_000, chunks: 10 });
    gpt = world.model('gpt');
    slowModel = world.model('slow');
    otherGroupModel = world.model('other');
    longModel = world.model('long');
    relay = await harness.start();
    chatToken = await new ServiceTokenSigner(harness.secret, RELAY_CHAT_COMPLETION_CALL.audience).token();
    await Promise.all([
      world.price(gpt),
      world.price(slowModel),
      world.price(otherGroupModel),
      world.price(longModel),
    ]);
    await world.channel(aChannelOn(upstream, [gpt], { model_mapping: { [gpt]: 'gpt-4o-mini' } }));
    await world.channel(aChannelOn(slow, [slowModel], { model_mapping: { [slowModel]: 'gpt-4o-mini' } }));
    await world.channel(aChannelOn(upstream, [otherGroupModel], { groups: ['someone-else'] }));
    await world.channel(aChannelOn(long, [longModel], { model_mapping: { [longModel]: 'gpt-4o-mini' } }));
  });

  afterAll(() => harness.close());

  /** world.price's list price (aModelPrice in test/support/fixtures.ts), at its group's ratio of 1. */
  const price = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };
  /** What the web chat sends: no answer length. */
  const unlimited = (model: string) => ({ model, messages: [{ role: 'user', content: 'Hello there' }] });

  it("streams an answer for the user, ends with the charge, and records it with no key and the chat's label", async () => {
    const userId = await webUser(5_000_000);
    const res = await chatCall(userId, ask(gpt), { 'x-request-id': `chat-answer-${userId}` });
    expect(res.status).toBe(200);
    const body = await res.text();
    const data = sseData(body);
    expect(data.at(-1)).toBe('[DONE]');
    expect(sseEventNames(body)).toEqual([CHAT_CHARGE_EVENT]);
    const charge = chatChargeSchema.parse(JSON.parse(data.at(-2)!));
    expect(charge.completion_tokens).toBe(8);
    const [event] = await harness.usageEvents(userId);
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
    const userId = await webUser(5_000_000);
    expect((await chatCall(userId, ask(gpt), { [SERVICE_TOKEN_HEADER]: '' })).status).toBe(401);
    const wrong = await new ServiceTokenSigner(harness.secret, 'relay:channel-test').token();
    const refused = await chatCall(userId, ask(gpt), { [SERVICE_TOKEN_HEADER]: wrong });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/service token/);
  });

  it('refuses an unknown user, and a user whose balance cannot pay, before anything is streamed', async () => {
    expect((await chatCall(1_999_999_999, ask(gpt))).status).toBe(401);
    const poor = await webUser(0);
    const res = await chatCall(poor, ask(gpt));
    expect(res.status).toBe(402);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it("answers shorter, rather than refuse, when the balance pays for less than the default answer's length", async () => {
    // Pays for a prompt of a few hundred tokens and about 1,000 answer tokens, not relay's default 4,096.
    const balance = chargeQuota({ prompt_tokens: 300, completion_tokens: 1_000, cached_tokens: 0 }, price);
    const userId = await webUser(balance);
    const res = await chatCall(userId, unlimited(longModel), { 'x-request-id': `chat-fitted-${userId}` });
    expect(res.status).toBe(200);
    const data = sseData(await res.text());
    const charge = chatChargeSchema.parse(JSON.parse(data.at(-2)!));
    expect(charge.answer_limit).toBeGreaterThanOrEqual(1_000);
    expect(charge.answer_limit).toBeLessThan(4_096);
    // The upstream was asked for no more: it had 5,000 tokens to say and stopped at the limit.
    expect(charge.completion_tokens).toBe(charge.answer_limit);
    const finishes = data
      .filter((line) => line.startsWith('{') && line.includes('"finish_reason":"'))
      .map(
        (line) => (JSON.parse(line) as { choices: { finish_reason: string }[] }).choices[0]?.finish_reason,
      );
    expect(finishes).toEqual(['length']);
    const [event] = await harness.usageEvents(userId);
    expect(event).toMatchObject({ status: 'success', quota: charge.quota });
    expect(charge.quota).toBeLessThanOrEqual(balance);
  });

  it('still refuses when the balance pays for too short an answer to be worth one', async () => {
    const balance = chargeQuota({ prompt_tokens: 0, completion_tokens: 100, cached_tokens: 0 }, price);
    const res = await chatCall(await webUser(balance), unlimited(longModel));
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/can only afford/);
  });

  it('charges only what was generated when the chat service stops the answer mid-stream', async () => {
    const userId = await webUser(50_000_000);
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
    const [event] = await harness.usageEvents(userId);
    expect(event!.status).toBe('client_aborted');
    expect(event!.completion_tokens).toBeGreaterThan(0);
    expect(event!.completion_tokens).toBeLessThan(200);
  });

  it("lists the models a channel serves for the user's group", async () => {
    const userId = await webUser(1_000);
    const res = await fetch(`${relay.url}${RELAY_CHAT_MODELS_CALL.path}`, {
      headers: { [SERVICE_TOKEN_HEADER]: chatToken, [CHAT_USER_HEADER]: String(userId) },
    });
    expect(res.status).toBe(200);
    const { models } = (await res.json()) as { models: string[] };
    expect(models).toEqual(expect.arrayContaining([gpt, slowModel]));
    expect(models).not.toContain(otherGroupModel);
  });
});
