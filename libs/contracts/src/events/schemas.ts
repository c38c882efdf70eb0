import { z } from 'zod';
import { decimalSchema, quotaSchema } from './money';
import { groupNameSchema } from '../users/roles';
import { auditRecordedV1 } from '../admin/audit';
import { DEFAULT_CURRENCIES } from '../auth/account-requests';
import { catalogChannelModelsV1 } from './catalog-channel-models';
import { usageRecordedV1 } from './usage-recorded';

/**
 * Event payloads, one zod schema per topic, each with a version field `v`. A consumer accepts the
 * versions it knows and sends the rest to the dead-letter topic. Compacted topics carry the whole
 * entity; deletion is a tombstone (null value).
 */

const epochSeconds = z.number().int().nonnegative();
const id = z.number().int().positive();

/** usage.recorded is zod 4's (see usage-recorded.ts); the other events are zod 3's. */
export { usageRecordedV1, type UsageRecorded } from './usage-recorded';

export const identityUserV1 = z.object({
  v: z.literal(1),
  id,
  username: z.string(),
  display_name: z.string(),
  role: z.number().int(),
  status: z.number().int(),
  group: groupNameSchema,
  inviter_id: id.nullable(),
  /**
   * The currency the user chose in their settings (relay tells costs in it); absent when they never
   * chose, and in events written before it existed: the platform's TOLLGATE_DEFAULT_CURRENCY applies.
   */
  // null too: events auth wrote for a while spelled "never chose" as null (an outbox JSON column's undefined).
  default_currency: z.enum(DEFAULT_CURRENCIES).nullish(),
  created_at: epochSeconds,
  updated_at: epochSeconds,
});
export type IdentityUser = z.infer<typeof identityUserV1>;

export const identityTokenV1 = z.object({
  v: z.literal(1),
  id,
  user_id: id,
  name: z.string(),
  /** HMAC-SHA256 of the key (hex): relay looks keys up by it; the key itself never travels. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.number().int(),
  expired_time: z.number().int(),
  remain_quota: quotaSchema,
  unlimited_quota: z.boolean(),
  model_limits_enabled: z.boolean(),
  model_limits: z.array(z.string()),
  allow_ips: z.array(z.string()),
  group: z.string(),
  /** The key's own rate limits, 0 = its group's (absent in events written before they existed). */
  rpm_limit: z.number().int().nonnegative().default(0),
  tpm_limit: z.number().int().nonnegative().default(0),
  concurrency_limit: z.number().int().nonnegative().default(0),
  /** The key's model aliases: asked name → served model (absent in events written before them). */
  model_aliases: z.record(z.string()).default({}),
  /** Quota the key has spent (absent in events written before it was published). */
  used_quota: quotaSchema.nonnegative().default(0),
  updated_at: epochSeconds,
});
export type IdentityToken = z.infer<typeof identityTokenV1>;

export const catalogChannelV1 = z.object({
  v: z.literal(1),
  id,
  type: z.number().int(),
  name: z.string(),
  /** The upstream key, encrypted (AES-256-GCM) with the platform's encryption key. */
  key_encrypted: z.string(),
  base_url: z.string(),
  models: z.array(z.string()),
  model_mapping: z.record(z.string()),
  groups: z.array(z.string()),
  priority: z.number().int(),
  weight: z.number().int().nonnegative(),
  tag: z.string(),
  status: z.number().int(),
  auto_ban: z.boolean(),
  test_model: z.string(),
  max_concurrency: z.number().int().nonnegative(),
  /**
   * Azure OpenAI's `api-version` (new-api keeps it in the channel's `other` field). Optional so that
   * producers and entities without it stay valid; absent or empty, relay uses its default GA version.
   * Other channel types ignore it.
   */
  api_version: z.string().max(64).optional(),
  /**
   * Seconds a streamed call on this channel waits for the upstream's headers, instead of relay's
   * RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS. Optional: absent, relay's global deadline applies.
   */
  stream_headers_timeout_seconds: z.number().int().min(1).max(600).optional(),
  updated_at: epochSeconds,
});
export type CatalogChannel = z.infer<typeof catalogChannelV1>;

export const catalogOptionV1 = z.object({
  v: z.literal(1),
  key: z.string().min(1).max(128),
  value: z.string(),
  updated_at: epochSeconds,
});
export type CatalogOption = z.infer<typeof catalogOptionV1>;

/**
 * billing.price carries model prices (key `model:<name>`), group ratios (key `group:<name>`) and the
 * dollar's rate in rubles that ruble amounts use, markup included (key `rate:USD_RUB`).
 */
export const billingPriceV1 = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(1),
    kind: z.literal('model'),
    model: z.string().min(1),
    provider: z.string(),
    input_price: decimalSchema,
    output_price: decimalSchema,
    cached_input_price: decimalSchema,
    /**
     * Prompt-cache writes for 5 minutes and for an hour, when the model prices them apart from input
     * (absent on entries published before they were priced, and on models whose writes cost the input price).
     */
    cache_write_price: decimalSchema.optional(),
    cache_write_1h_price: decimalSchema.optional(),
    context_window: z.number().int().nonnegative(),
    updated_at: epochSeconds,
  }),
  z.object({
    v: z.literal(1),
    kind: z.literal('group_ratio'),
    group: groupNameSchema,
    ratio: decimalSchema,
    updated_at: epochSeconds,
  }),
  z.object({
    v: z.literal(1),
    kind: z.literal('exchange_rate'),
    pair: z.literal('USD_RUB'),
    /** Rubles per dollar, the operators' markup included: what billing's ruble prices use. */
    rate: decimalSchema,
    updated_at: epochSeconds,
  }),
]);
export type BillingPrice = z.infer<typeof billingPriceV1>;
export const priceKey = {
  model: (model: string) => `model:${model}`,
  group: (group: string) => `group:${group}`,
  rate: (pair: 'USD_RUB') => `rate:${pair}`,
};

export const billingBalanceV1 = z.object({
  v: z.literal(1),
  user_id: id,
  quota: quotaSchema,
  used_quota: quotaSchema,
  request_count: z.number().int().nonnegative(),
  aff_quota: quotaSchema,
  aff_history_quota: quotaSchema,
  /** Ledger sequence of the last change: a read model keeps the highest it has seen. */
  version: z.number().int().nonnegative(),
  updated_at: epochSeconds,
});
export type BillingBalance = z.infer<typeof billingBalanceV1>;

export const billingPaymentV1 = z.object({
  v: z.literal(1),
  event_id: z.string().uuid(),
  payment_id: id,
  user_id: id,
  provider: z.enum(['yookassa', 'crypto', 'test']),
  amount: decimalSchema,
  currency: z.enum(['RUB', 'USD']),
  quota: quotaSchema,
  status: z.enum(['pending', 'success', 'failed', 'canceled', 'refunded', 'test_success']),
  occurred_at: epochSeconds,
});
export type BillingPayment = z.infer<typeof billingPaymentV1>;

/** Schema per topic name, for consumers and tests. */
export const EVENT_SCHEMAS = {
  'usage.recorded': usageRecordedV1,
  'identity.user': identityUserV1,
  'identity.token': identityTokenV1,
  'catalog.channel': catalogChannelV1,
  'catalog.channel-models': catalogChannelModelsV1,
  'catalog.option': catalogOptionV1,
  'billing.price': billingPriceV1,
  'billing.balance': billingBalanceV1,
  'billing.payment': billingPaymentV1,
  'audit.recorded': auditRecordedV1,
} as const;
