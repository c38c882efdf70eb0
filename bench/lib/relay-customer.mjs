// The customer a bench that starts relay on its own publishes straight onto the compacted topics relay
// reads: a user, an API key, a channel to the fake upstream, its prices and a large balance, under
// names of the run's own (the topics still hold other runs' channels, sealed with other keys). The
// packages come from `requireFromRoot`, so a run against another checkout (`--root`) seals and hashes
// with that checkout's code. Used by bench/hot-path-cpu.mjs and bench/micro/relay-stream-memory.mjs.
import { createHmac, randomBytes, randomInt } from 'node:crypto';

/** The fake upstream's model and key that the seeded channel calls. */
export const MODEL_UPSTREAM = 'gpt-4o-mini';
export const UPSTREAM_KEY = 'sk-fake-openai-key';

/** Resolves to `{ apiKey, model, republishBalance }`. */
export async function seedRelayCustomer({
  requireFromRoot,
  bus,
  encryptionKey,
  upstreamUrl,
  runId,
  prefix,
  label,
}) {
  const contracts = requireFromRoot('@tollgate/contracts');
  const platform = requireFromRoot('@tollgate/platform');
  const master = Buffer.from(encryptionKey, 'base64');
  const channelBox = new platform.SecretBox(
    platform.deriveKey(master, contracts.CHANNEL_KEY_ENCRYPTION_PURPOSE),
  );
  const hmacKey = platform.deriveKey(master, contracts.TOKEN_KEY_HASH_PURPOSE);
  const now = Math.floor(Date.now() / 1000);
  const userId = randomInt(100_000_000, 2_000_000_000);
  const tokenId = randomInt(100_000_000, 2_000_000_000);
  const channelId = randomInt(100_000_000, 2_000_000_000);
  const apiKey = `sk-${randomBytes(24).toString('hex')}`;
  // The run's own names: the compacted topics still hold other runs' channels, sealed with other keys.
  const model = `${prefix}-gpt-${runId}`;
  const group = `${prefix}_${runId}`;
  const { TOPICS } = contracts;
  await bus.publish([
    {
      topic: TOPICS.identityUser.name,
      key: String(userId),
      value: {
        v: 1,
        id: userId,
        username: `${prefix}_${userId}`,
        display_name: label,
        role: contracts.Role.User,
        status: contracts.UserStatus.Enabled,
        group,
        inviter_id: null,
        created_at: now,
        updated_at: now,
      },
    },
    {
      topic: TOPICS.identityToken.name,
      key: String(tokenId),
      value: {
        v: 1,
        id: tokenId,
        user_id: userId,
        name: `${label} key`,
        key_hash: createHmac('sha256', hmacKey).update(apiKey, 'utf8').digest('hex'),
        status: contracts.TokenStatus.Enabled,
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: true,
        model_limits_enabled: false,
        model_limits: [],
        allow_ips: [],
        group,
        updated_at: now,
      },
    },
    {
      topic: TOPICS.catalogChannel.name,
      key: String(channelId),
      value: {
        v: 1,
        id: channelId,
        type: 1,
        name: `${label} fake upstream`,
        key_encrypted: channelBox.seal(UPSTREAM_KEY),
        base_url: upstreamUrl,
        models: [model],
        model_mapping: { [model]: MODEL_UPSTREAM },
        groups: [group],
        priority: 0,
        weight: 1,
        tag: '',
        status: 1,
        auto_ban: false,
        test_model: '',
        max_concurrency: 0,
        updated_at: now,
      },
    },
    {
      topic: TOPICS.billingPrice.name,
      key: `model:${model}`,
      value: {
        v: 1,
        kind: 'model',
        model,
        provider: 'openai',
        input_price: '0.15',
        output_price: '0.6',
        cached_input_price: '0.075',
        context_window: 128_000,
        updated_at: now,
      },
    },
    {
      topic: TOPICS.billingPrice.name,
      key: `group:${group}`,
      value: { v: 1, kind: 'group_ratio', group, ratio: '1', updated_at: now },
    },
  ]);
  const balance = [
    {
      topic: TOPICS.billingBalance.name,
      key: String(userId),
      value: {
        v: 1,
        user_id: userId,
        quota: 1_000_000_000_000,
        used_quota: 0,
        request_count: 0,
        aff_quota: 0,
        aff_history_quota: 0,
        version: 1,
        updated_at: now,
      },
    },
  ];
  await bus.publish(balance);
  // Seen twice on a shared broker: the balance never reached relay's read model (402 "can only afford 0")
  // while the rest of the catalogue did. Publishing it again (a later version, the same amount) is harmless.
  const republishBalance = () => {
    balance[0].value.version++;
    return bus.publish(balance);
  };
  return { apiKey, model, republishBalance };
}
