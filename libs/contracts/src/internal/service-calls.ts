import { z } from 'zod';
import { catalogChannelV1 } from '../events/schemas';

/**
 * Calls one service makes to another directly (never through the gateway: /internal/ is not in the
 * route table). Each names the audience its service token is signed for, so a token for one call is
 * useless for any other.
 */
export interface ServiceCall {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Express-style path; `:name` segments are filled in by the caller. */
  readonly path: string;
  readonly audience: string;
}

/** The issuer of every service token (libs/platform's ServiceTokenSigner signs, ServiceOnly verifies). */
export const SERVICE_TOKEN_ISSUER = 'tollgate-service';

/** HKDF purpose of the key that seals upstream channel keys (admin seals, relay opens). */
export const CHANNEL_KEY_ENCRYPTION_PURPOSE = 'tollgate/channel-key/encryption/v1';

/** Admin asks relay to send one small real request through a channel. */
export const CHANNEL_TEST_CALL = {
  method: 'POST',
  path: '/internal/channels/test',
  audience: 'relay:channel-test',
} as const satisfies ServiceCall;

export const channelTestRequest = z.object({
  channel: catalogChannelV1,
  model: z.string().min(1).max(128).optional(),
});
export type ChannelTestRequest = z.infer<typeof channelTestRequest>;

/** Always answered with HTTP 200 once understood; `success` says whether the upstream call worked. */
export const channelTestResult = z.object({
  success: z.boolean(),
  time_ms: z.number().int().nonnegative(),
  model: z.string(),
  message: z.string(),
});
export type ChannelTestResult = z.infer<typeof channelTestResult>;

/** Admin asks relay for the models a channel's key may use, as its upstream lists them. */
export const CHANNEL_MODELS_CALL = {
  method: 'POST',
  path: '/internal/channels/models',
  audience: 'relay:channel-models',
} as const satisfies ServiceCall;

export const channelModelsRequest = z.object({ channel: catalogChannelV1 });
export type ChannelModelsRequest = z.infer<typeof channelModelsRequest>;

/** Answered with HTTP 200 once understood; `success` says whether the upstream listed its models. */
export const channelModelsResult = z.object({
  success: z.boolean(),
  models: z.array(z.string()),
  message: z.string(),
});
export type ChannelModelsResult = z.infer<typeof channelModelsResult>;

/**
 * Admin asks relay which channels its circuit breakers hold out, for the channel list. Each relay
 * process keeps its own breakers: the answer is that of the replica that answered.
 */
export const CHANNEL_BREAKERS_CALL = {
  method: 'GET',
  path: '/internal/channels/breakers',
  audience: 'relay:channel-breakers',
} as const satisfies ServiceCall;

/**
 * The channels whose circuit is not closed (a channel not listed is closed): `open` until
 * `next_trial_at` (epoch seconds), when relay lets one trial call through; `half_open` while the trial
 * may go or is in flight (`next_trial_at` null).
 */
export const channelBreakersResult = z.object({
  channels: z.array(
    z.object({
      id: z.number().int().positive(),
      state: z.enum(['open', 'half_open']),
      next_trial_at: z.number().int().nullable(),
    }),
  ),
});
export type ChannelBreakersResult = z.infer<typeof channelBreakersResult>;

/** Relay tells admin that a channel's key is invalid or its quota exhausted (channels with auto_ban). */
export const CHANNEL_AUTO_DISABLE_CALL = {
  method: 'POST',
  path: '/internal/channels/:id/auto-disable',
  audience: 'admin:channel-status',
} as const satisfies ServiceCall;

export const channelAutoDisableRequest = z.object({
  reason: z.string().max(500),
  status_code: z.number().int().min(100).max(599).optional(),
});
export type ChannelAutoDisableRequest = z.infer<typeof channelAutoDisableRequest>;

/** Auth's user admin sets a user's balance; billing records the difference as one adjustment entry. */
export const ACCOUNT_SET_QUOTA_CALL = {
  method: 'POST',
  path: '/internal/accounts/:userId/quota',
  audience: 'billing:account-quota',
} as const satisfies ServiceCall;

export const accountSetQuotaRequest = z.object({
  quota: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  idempotency_key: z.string().min(1).max(128),
  actor_id: z.number().int().positive(),
  /** The actor's role, for the audit trail (an older caller that omits it was an admin). */
  actor_role: z.number().int().positive().default(10),
  reason: z.string().max(500).optional(),
});
export type AccountSetQuotaRequest = z.output<typeof accountSetQuotaRequest>;

export const accountSetQuotaResult = z.object({
  user_id: z.number().int().positive(),
  quota: z.number().int(),
  delta: z.number().int(),
});
export type AccountSetQuotaResult = z.infer<typeof accountSetQuotaResult>;

/**
 * The chat service asks relay for a completion as a signed-in user, with no API key: the service
 * token proves the caller is a service, `CHAT_USER_HEADER` names the user and `CHAT_LABEL_HEADER`
 * the chat (the usage log's token name). The body is OpenAI's chat completion request (streamed);
 * routing, reservation, usage events and the charge are those of any /v1 call, except that a request
 * naming no answer length whose balance cannot pay for the default one is answered shorter (what the
 * balance pays for, from 256 tokens) instead of refused. Just before
 * `data: [DONE]` the stream carries one `event: tollgate.charge` whose data is a ChatCharge.
 */
export const RELAY_CHAT_COMPLETION_CALL = {
  method: 'POST',
  path: '/internal/chat/completions',
  audience: 'relay:chat',
} as const satisfies ServiceCall;

/** The models a user may call (a channel serves them for the user's group); `CHAT_USER_HEADER` names the user. */
export const RELAY_CHAT_MODELS_CALL = {
  method: 'GET',
  path: '/internal/chat/models',
  audience: 'relay:chat',
} as const satisfies ServiceCall;

export const CHAT_USER_HEADER = 'x-tollgate-chat-user';
export const CHAT_LABEL_HEADER = 'x-tollgate-chat-label';
/** The SSE event name of the charge relay sends at the end of an internal chat stream. */
export const CHAT_CHARGE_EVENT = 'tollgate.charge';

export const chatChargeSchema = z.object({
  /** What the balance moved by, in quota units. */
  quota: z.number().int().nonnegative(),
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  /** The model that answered (the requested name). */
  model: z.string(),
  /**
   * Set when the balance could not pay for an answer of the default length: the answer was held to
   * this many tokens (what the balance paid for) rather than refused.
   */
  answer_limit: z.number().int().positive().optional(),
});
export type ChatCharge = z.infer<typeof chatChargeSchema>;

export const relayChatModelsResult = z.object({ models: z.array(z.string()) });
export type RelayChatModelsResult = z.infer<typeof relayChatModelsResult>;

/** Fills `:name` segments of a call's path. */
export function servicePath(
  call: ServiceCall,
  params: Readonly<Record<string, string | number>> = {},
): string {
  return call.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${call.path}`);
    return encodeURIComponent(String(value));
  });
}

/** Relay asks billing what an API key has spent today and this month (GET /v1/key). */
export const KEY_USAGE_CALL = {
  method: 'GET',
  path: '/internal/usage/tokens/:tokenId',
  audience: 'billing:key-usage',
} as const satisfies ServiceCall;

/** Quota and requests of one key in the current Moscow day and calendar month. */
export const keyUsageResult = z.object({
  today_quota: z.number().int().nonnegative(),
  today_requests: z.number().int().nonnegative(),
  month_quota: z.number().int().nonnegative(),
  month_requests: z.number().int().nonnegative(),
});
export type KeyUsageResult = z.infer<typeof keyUsageResult>;

/**
 * Relay asks billing for one call of a user's (GET /v1/generation): `id` is the answer's id or the
 * request id; `token_id` narrows it to a key's own calls.
 */
export const GENERATION_CALL = {
  method: 'GET',
  path: '/internal/usage/users/:userId/generations/:id',
  audience: 'billing:generation',
} as const satisfies ServiceCall;

/** What the usage log knows of a call: never its text. */
export const generationResult = z.object({
  id: z.string(),
  request_id: z.string(),
  model: z.string(),
  upstream_model: z.string(),
  token_id: z.number().int().nullable(),
  created_at: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cached_tokens: z.number().int(),
  /**
   * Prompt tokens written to the prompt cache for 5 minutes and for an hour, apart from each other and
   * from `cached_tokens`. Billing always sends them; optional so that a billing from before them is
   * still understood (read as 0).
   */
  cache_write_5m_tokens: z.number().int().nonnegative().optional(),
  cache_write_1h_tokens: z.number().int().nonnegative().optional(),
  quota: z.number().int(),
  latency_ms: z.number().int(),
  ttft_ms: z.number().int().nullable(),
  is_stream: z.boolean(),
  status: z.string(),
  finish_reason: z.string().nullable(),
});
export type GenerationResult = z.infer<typeof generationResult>;

/**
 * Admin asks billing which payment providers it holds credentials for, so that /api/status offers
 * only methods billing can take (an operator's switch can turn a configured one off, never the reverse).
 */
export const PAYMENT_METHODS_CALL = {
  method: 'GET',
  path: '/internal/payments/methods',
  audience: 'billing:payment-methods',
} as const satisfies ServiceCall;

export const paymentMethodsResult = z.object({
  /** YooKassa's shop id and secret key are both set. */
  yookassa: z.boolean(),
  /** The crypto invoice API's merchant id and key are both set. */
  crypto: z.boolean(),
});
export type PaymentMethodsResult = z.infer<typeof paymentMethodsResult>;
