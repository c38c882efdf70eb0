import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_CURRENCIES } from '@tollgate/contracts';
import { baseServiceConfig, envInt, secret } from '@tollgate/platform';

const wholeNumber = (fallback: string, min = 0) => envInt().pipe(z.number().int().min(min)).default(fallback);

export const relayConfigSchema = z.object({
  ...baseServiceConfig,
  SERVICE_NAME: baseServiceConfig.SERVICE_NAME.default('relay'),
  PORT: baseServiceConfig.PORT.default('3003'),
  REDIS_URL: secret(z.string().url().optional()),
  KAFKA_BROKERS: z.string().optional(),
  /** 32 bytes, base64 or hex: the API-key lookup HMAC and the channel-key encryption derive from it. */
  TOLLGATE_ENCRYPTION_KEY: secret(z.string().min(32, 'must be a 32-byte key, base64 or hex')),
  /** Where admin listens, for reporting channels to auto-disable. */
  ADMIN_URL: z.string().url().default('http://127.0.0.1:3005'),
  /** Where billing listens, for a key's spending (GET /v1/key) and one call's record (GET /v1/generation). */
  BILLING_URL: z.string().url().default('http://127.0.0.1:3002'),
  /** Largest /v1 request body (images in prompts make bodies large). */
  RELAY_BODY_LIMIT_BYTES: wholeNumber(String(32 * 1024 * 1024), 1024),
  /** Largest audio file for /v1/audio/transcriptions and /translations (OpenAI's limit: 25 MB). */
  RELAY_AUDIO_FILE_LIMIT_BYTES: wholeNumber(String(25 * 1024 * 1024), 1024),
  /** Where uploads are spooled for the length of their call (a private directory per call). */
  RELAY_UPLOAD_DIR: z.string().min(1).default(tmpdir()),
  /**
   * Where usage.recorded the broker could not take is written (one file per process) until it does,
   * so that a relay that dies during a broker outage loses none of it; a relay that starts publishes
   * what relays that are gone left here. Relative to the working directory; keep it across restarts
   * (a volume) and never share it between hosts. At most 80 bytes once resolved: lock sockets live in
   * it. See docs/relay.md, "Usage spool".
   */
  RELAY_USAGE_SPOOL_DIR: z
    .string()
    .min(1)
    .refine((dir) => Buffer.byteLength(resolve(dir)) <= 80, {
      message: 'must resolve to a path of at most 80 bytes (lock sockets live in it)',
    })
    .default('data/relay-usage-spool'),
  /** A reservation nobody settles (a crashed replica) frees itself after this long. */
  RELAY_RESERVATION_TTL_MS: wholeNumber('900000', 1000),
  /** How long a settled charge keeps counting against the balance: an upper bound on billing's lag. */
  RELAY_QUOTA_HOLD_MS: wholeNumber('60000', 0),
  /**
   * How long a replica spends calls of one account from one store reservation (a lease) before
   * handing it back; 0 makes one store reservation per call. See docs/relay.md, "Quota leases".
   */
  RELAY_QUOTA_LEASE_MS: wholeNumber('500', 0),
  /** A lease covers this many calls of the size that opened it (capped at 1/64 of the balance). */
  RELAY_QUOTA_LEASE_CALLS: wholeNumber('32', 1),
  /** Output tokens assumed for the reservation when the client sets no max_tokens. */
  RELAY_DEFAULT_MAX_OUTPUT_TOKENS: wholeNumber('4096', 1),
  /** Longest wait for an upstream's status and headers. */
  RELAY_UPSTREAM_HEADERS_TIMEOUT_MS: wholeNumber('300000', 1000),
  /**
   * Longest wait for the headers of a streamed call's answer: providers send them at once and the
   * tokens after, so a stream that has not begun by then is a hanging channel; the attempt counts
   * against the channel's circuit and the call moves on to the next channel. See docs/relay.md.
   */
  RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS: wholeNumber('30000', 100),
  RELAY_UPSTREAM_CONNECTIONS: wholeNumber('256', 1),
  /** Further channels tried after a connect error, 429 or 5xx (before the client got any byte). */
  RELAY_MAX_RETRIES: wholeNumber('2', 0),
  /** How long a call may wait for a slot on a channel at its max_concurrency (then 503). */
  RELAY_QUEUE_TIMEOUT_MS: wholeNumber('10000', 1),
  RELAY_QUEUE_CAPACITY: wholeNumber('1000', 0),
  /** Groups served first from a full channel's queue, comma-separated. */
  RELAY_PRIORITY_GROUPS: z.string().default('enterprise,svip'),
  /** Consecutive failures that take a channel out of rotation, and for how long. */
  RELAY_BREAKER_FAILURES: wholeNumber('5', 1),
  RELAY_BREAKER_HALF_OPEN_MS: wholeNumber('30000', 0),
  /** The currency costs are told in to a user who never chose one (as the status endpoint says). */
  TOLLGATE_DEFAULT_CURRENCY: z.enum(DEFAULT_CURRENCIES).catch('RUB').default('RUB'),
});
export type RelayConfig = z.output<typeof relayConfigSchema>;
