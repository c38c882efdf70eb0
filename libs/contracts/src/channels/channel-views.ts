import { z } from 'zod';
import { pageSchema } from '../http/envelope';

/** The longest a channel's last test error is kept and shown (relay's message, never a key or a prompt). */
export const CHANNEL_TEST_ERROR_MAX_LENGTH = 500;

/**
 * A channel relay's circuit breaker holds out: `open` (no calls until `until`, epoch seconds, when
 * the next trial call is let through) or `half_open` (the next call, or one in flight, is the trial;
 * `until` is null). Relay's breakers live in each relay process: the list shows the replica that answered.
 */
export const channelBreakerSchema = z.object({
  state: z.enum(['open', 'half_open']),
  until: z.number().int().nullable(),
});
export type ChannelBreaker = z.infer<typeof channelBreakerSchema>;

/**
 * A channel as the admin API shows it: new-api's field names, `models` and `group` comma-separated,
 * `model_mapping` as JSON text ('' when none), `auto_ban` 1/0, times in epoch seconds (0 = never),
 * and the upstream key masked (`sk-ab…wxyz`), never whole.
 */
export const channelViewSchema = z.object({
  id: z.number().int().positive(),
  type: z.number().int(),
  name: z.string(),
  key: z.string(),
  base_url: z.string(),
  models: z.string(),
  model_mapping: z.string(),
  group: z.string(),
  priority: z.number().int(),
  weight: z.number().int(),
  tag: z.string(),
  status: z.number().int(),
  /** Why the system disabled the channel ('' otherwise). */
  status_reason: z.string(),
  status_time: z.number().int(),
  auto_ban: z.union([z.literal(0), z.literal(1)]),
  test_model: z.string(),
  /** Milliseconds the last test took. */
  response_time: z.number().int(),
  test_time: z.number().int(),
  /** Why the last test failed (relay's message); null after a passing test or when never tested. */
  test_error: z.string().nullable().default(null),
  used_quota: z.number().int(),
  max_concurrency: z.number().int(),
  /** For Azure, the API version ('' = relay's default). */
  other: z.string(),
  created_time: z.number().int(),
  /**
   * Seconds a streamed call on this channel waits for the upstream's headers (its first token) before
   * relay tries the next channel; null = relay's RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS.
   */
  stream_headers_timeout: z.number().int().nullable().default(null),
  /** Relay's circuit breaker for the channel when it holds the channel out; null when closed or unknown. */
  breaker: channelBreakerSchema.nullable().default(null),
});
/** The three fields after `created_time` default to null so that an admin from before them still parses. */
export type ChannelView = z.output<typeof channelViewSchema>;

/** A page of channels plus how many channels of each type match (new-api's `type_counts`). */
export const channelPageSchema = pageSchema(channelViewSchema).extend({
  type_counts: z.record(z.number().int()),
});
export type ChannelPage = z.infer<typeof channelPageSchema>;

/** GET /api/channel/test/:id, as new-api answers it: `time` in seconds; `data` adds the model and milliseconds. */
export const channelTestAnswerSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  time: z.number().nonnegative(),
  data: z.object({ model: z.string(), time_ms: z.number().int().nonnegative() }),
});
export type ChannelTestAnswer = z.infer<typeof channelTestAnswerSchema>;

/** The answer of CHANNEL_AUTO_DISABLE_CALL (admin's /internal/channels/:id/auto-disable). */
export const channelStatusResultSchema = z.object({
  id: z.number().int().positive(),
  status: z.number().int(),
});
export type ChannelStatusResult = z.infer<typeof channelStatusResultSchema>;
