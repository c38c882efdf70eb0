import { randomInt, randomUUID } from 'node:crypto';
import {
  ACCOUNT_SET_QUOTA_CALL,
  CHANNEL_KEY_ENCRYPTION_PURPOSE,
  CHANNEL_TYPES,
  servicePath,
  TOPICS,
  type BillingPrice,
  type CatalogChannel,
} from '@tollgate/contracts';
import type { EventBus } from '@tollgate/events';
import { deriveKey, SecretBox, SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
import { DEFAULT_FAKE_UPSTREAM_KEYS } from '../fake-upstream';
import { FAKE_UPSTREAM_PRICE } from './admin-seed';
import { eventually } from '../service-harness';

export interface FakeUpstreamCatalogue {
  /** TOLLGATE_ENCRYPTION_KEY of the platform (base64): the channel's key is sealed with it. */
  encryptionKey: string;
  /** The fake upstream's base URL. */
  upstreamUrl: string;
  /** The model clients ask for; the upstream is asked for gpt-4o-mini. */
  model: string;
}

/**
 * What a platform with no admin and no operator needs before it can serve `model`: one OpenAI channel
 * on the fake upstream for the default group (its key sealed as admin seals it) on catalog.channel,
 * and the model's price on billing.price, as admin and billing publish them.
 */
export async function publishFakeUpstreamCatalogue(
  bus: EventBus,
  { encryptionKey, upstreamUrl, model }: FakeUpstreamCatalogue,
): Promise<void> {
  const box = new SecretBox(deriveKey(Buffer.from(encryptionKey, 'base64'), CHANNEL_KEY_ENCRYPTION_PURPOSE));
  const now = Math.floor(Date.now() / 1000);
  const channel: CatalogChannel = {
    v: 1,
    id: randomInt(100_000_000, 2_000_000_000),
    type: CHANNEL_TYPES.openai,
    name: 'fake upstream',
    key_encrypted: box.seal(DEFAULT_FAKE_UPSTREAM_KEYS.openai),
    base_url: upstreamUrl,
    models: [model],
    model_mapping: { [model]: 'gpt-4o-mini' },
    groups: ['default'],
    priority: 0,
    weight: 1,
    tag: '',
    status: 1,
    auto_ban: false,
    test_model: '',
    max_concurrency: 0,
    updated_at: now,
  };
  const price: BillingPrice = {
    v: 1,
    kind: 'model',
    model,
    ...FAKE_UPSTREAM_PRICE,
    updated_at: now,
  };
  await bus.publish([
    { topic: TOPICS.catalogChannel.name, key: String(channel.id), value: channel },
    { topic: TOPICS.billingPrice.name, key: `model:${model}`, value: price },
  ]);
}

export interface BalanceSetting {
  /** Billing's own URL (not the gateway's: the call is service to service). */
  billingUrl: string;
  /** TOLLGATE_INTERNAL_TOKEN_SECRET of the platform. */
  secret: string;
  userId: number;
  quota: number;
  /** Written on the adjustment, as an operator's reason is. */
  reason: string;
}

/**
 * Sets the user's balance through billing's account call (as admin does), asking again until billing
 * answers 200: a user just registered reaches billing through identity.user a moment later.
 */
export async function setBalanceThroughBilling({
  billingUrl,
  secret,
  userId,
  quota,
  reason,
}: BalanceSetting): Promise<void> {
  const call = ACCOUNT_SET_QUOTA_CALL;
  const signer = new ServiceTokenSigner(secret, call.audience);
  await eventually(`billing to set the balance of user ${userId}`, async () => {
    const res = await fetch(`${billingUrl}${servicePath(call, { userId })}`, {
      method: call.method,
      headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: await signer.token() },
      body: JSON.stringify({ quota, idempotency_key: randomUUID(), actor_id: 1, reason }),
    });
    return res.status === 200 ? true : undefined;
  });
}
