// The bench's customer: a user, an unlimited key, an OpenAI channel on the fake upstream, a price, and
// a balance large enough for any run. Catalogue entities are published onto their compacted topics as
// auth and admin would; the balance goes through billing's own internal call, so billing's ledger
// and the billing.balance it publishes agree with what it will charge.
import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { workspacePackage } from './workspace.mjs';

const contracts = workspacePackage('@tollgate/contracts');
const platform = workspacePackage('@tollgate/platform');

export const UPSTREAM_MODEL = 'gpt-4o-mini';
export const UPSTREAM_KEY = 'sk-fake-openai-key';
/** 2,000,000 USD of quota: no run can spend it. */
export const BENCH_BALANCE = 1_000_000_000_000;
const now = () => Math.floor(Date.now() / 1000);

/**
 * Model and group names are the run's own: on a shared broker, the compacted topics still hold the
 * channels of earlier runs, sealed with other keys, which relay would otherwise try first.
 */
export async function seedCustomer({ bus, encryptionKey, internalSecret, billingUrl, upstreamUrl, runId }) {
  const BENCH_MODEL = `bench-gpt-${runId}`;
  const BENCH_GROUP = `bench_${runId}`;
  const master = Buffer.from(encryptionKey, 'base64');
  const channelBox = new platform.SecretBox(
    platform.deriveKey(master, contracts.CHANNEL_KEY_ENCRYPTION_PURPOSE),
  );
  const hmacKey = platform.deriveKey(master, contracts.TOKEN_KEY_HASH_PURPOSE);
  const userId = randomInt(100_000_000, 2_000_000_000);
  const tokenId = randomInt(100_000_000, 2_000_000_000);
  const channelId = randomInt(100_000_000, 2_000_000_000);
  const apiKey = `sk-${randomBytes(24).toString('hex')}`;
  const { TOPICS } = contracts;

  await bus.publish([
    {
      topic: TOPICS.identityUser.name,
      key: String(userId),
      value: {
        v: 1,
        id: userId,
        username: `bench_${userId}`,
        display_name: 'Bench',
        role: contracts.Role.User,
        status: contracts.UserStatus.Enabled,
        group: BENCH_GROUP,
        inviter_id: null,
        created_at: now(),
        updated_at: now(),
      },
    },
    {
      topic: TOPICS.identityToken.name,
      key: String(tokenId),
      value: {
        v: 1,
        id: tokenId,
        user_id: userId,
        name: 'bench key',
        key_hash: createHmac('sha256', hmacKey).update(apiKey, 'utf8').digest('hex'),
        status: contracts.TokenStatus.Enabled,
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: true,
        model_limits_enabled: false,
        model_limits: [],
        allow_ips: [],
        group: BENCH_GROUP,
        updated_at: now(),
      },
    },
    {
      topic: TOPICS.catalogChannel.name,
      key: String(channelId),
      value: {
        v: 1,
        id: channelId,
        type: 1,
        name: 'bench fake upstream',
        key_encrypted: channelBox.seal(UPSTREAM_KEY),
        base_url: upstreamUrl,
        models: [BENCH_MODEL],
        model_mapping: { [BENCH_MODEL]: UPSTREAM_MODEL },
        // 'default' too: the chat scenario's web user (root) is in the default group.
        groups: [BENCH_GROUP, 'default'],
        priority: 0,
        weight: 1,
        tag: '',
        status: 1,
        auto_ban: false,
        test_model: '',
        max_concurrency: 0,
        updated_at: now(),
      },
    },
    {
      topic: TOPICS.billingPrice.name,
      key: `model:${BENCH_MODEL}`,
      value: {
        v: 1,
        kind: 'model',
        model: BENCH_MODEL,
        provider: 'openai',
        input_price: '0.15',
        output_price: '0.6',
        cached_input_price: '0.075',
        context_window: 128_000,
        updated_at: now(),
      },
    },
    {
      topic: TOPICS.billingPrice.name,
      key: `group:${BENCH_GROUP}`,
      value: { v: 1, kind: 'group_ratio', group: BENCH_GROUP, ratio: '1', updated_at: now() },
    },
  ]);

  await setBenchBalance({ billingUrl, internalSecret, userId });
  return { userId, tokenId, channelId, apiKey, model: BENCH_MODEL, group: BENCH_GROUP };
}

/** An operator's (or customer's) signed-in HTTP session on the platform: `(method, path, body)` → the answer's data. */
export async function signIn(url, credentials) {
  const res = await fetch(`${url}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200)
    throw new Error(`sign-in as ${credentials.username}: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { id } = (await res.json()).data;
  return async (method, path, body) => {
    const answer = await fetch(`${url}${path}`, {
      method,
      headers: { cookie, 'new-api-user': String(id), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    const json = text ? JSON.parse(text) : {};
    if (answer.status !== 200 || json.success === false)
      throw new Error(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
    return json.data;
  };
}

/**
 * The bench's customer made as an operator and a customer make it, through the platform's HTTP API:
 * root prices the model and adds an OpenAI channel on the fake upstream (admin), creates a user and
 * sets its balance (admin's quota adjustment, a ledger entry in billing); the user makes an unlimited
 * key (auth). So the key and the channel are in auth's and admin's databases, and every call's usage
 * is counted on them there as in production (published straight onto the topics, they were not).
 * The model is the run's own: a shared broker's compacted topics hold earlier runs' channels.
 */
export async function seedCustomerThroughApi({ url, root, upstreamUrl, runId }) {
  const model = `bench-gpt-${runId}`;
  const group = 'default';
  const asRoot = await signIn(url, root);
  await asRoot('PUT', `/api/pricing/models/${model}`, {
    provider: 'openai',
    input_price: '0.15',
    output_price: '0.6',
    cached_input_price: '0.075',
    context_window: 128_000,
    intelligence: 3,
    speed: 4,
    sota: false,
    deprecated: false,
  });
  const channel = await asRoot('POST', '/api/channel/', {
    type: 1,
    name: 'bench fake upstream',
    key: UPSTREAM_KEY,
    base_url: upstreamUrl,
    models: model,
    model_mapping: JSON.stringify({ [model]: UPSTREAM_MODEL }),
    group,
  });
  const customer = {
    username: `bench${randomBytes(4).toString('hex')}`,
    password: randomBytes(8).toString('hex'),
  };
  const { id: userId } = await asRoot('POST', '/api/user/', customer);
  // In distributed mode billing learns of the user from identity.user a moment later.
  await retrying(`the balance of user ${userId}`, () =>
    asRoot('PUT', '/api/user/', { id: userId, quota: BENCH_BALANCE, quota_reason: 'bench' }),
  );
  const asCustomer = await signIn(url, customer);
  const { id: tokenId } = await asCustomer('POST', '/api/token/', {
    name: 'bench key',
    unlimited_quota: true,
  });
  const { key: apiKey } = await asCustomer('POST', `/api/token/${tokenId}/key`);
  return { userId, tokenId, channelId: channel.id, apiKey, model, group };
}

async function retrying(what, attempt, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: ${error.message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Gives a user the bench balance through billing's own internal call (a ledger adjustment). */
export async function setBenchBalance({ billingUrl, internalSecret, userId }) {
  const call = contracts.ACCOUNT_SET_QUOTA_CALL;
  const signer = new platform.ServiceTokenSigner(internalSecret, call.audience);
  const res = await fetch(new URL(contracts.servicePath(call, { userId }), billingUrl), {
    method: call.method,
    headers: { 'content-type': 'application/json', [platform.SERVICE_TOKEN_HEADER]: await signer.token() },
    body: JSON.stringify({
      quota: BENCH_BALANCE,
      idempotency_key: `bench:${randomUUID()}`,
      actor_id: 1,
      reason: 'bench',
    }),
  });
  if (res.status !== 200)
    throw new Error(`billing refused the bench balance: ${res.status} ${await res.text()}`);
}

/** Resolves once a chat completion through `gatewayUrl` succeeds (relay has the entities and the balance). */
export async function waitUntilServable(gatewayUrl, { apiKey, model }, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const res = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 8 }),
    }).catch((error) => ({ status: 0, text: async () => error.message }));
    if (res.status === 200) return;
    last = `${res.status} ${(await res.text()).slice(0, 300)}`;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the seeded key is not served through the gateway after ${timeoutMs} ms: ${last}`);
}
