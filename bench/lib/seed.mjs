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
