// zod 4, as shipped inside the installed zod 3.25: its objects are checked by generated code, which
// saves the consumers of every /v1 call's event a fifth to a half of zod 3's time (bench/ANALYSIS.md, h72).
// Its schemas cannot be composed with zod 3's, hence the twins of the shared group, quota and decimal
// schemas below (on the same patterns); usage-recorded-validation.spec.ts holds this schema to the
// zod 3 one it replaced.
import { z } from 'zod/v4';
import { GROUP_NAME_PATTERN } from '../users/roles';
import { DECIMAL_PATTERN } from './money';

/** Any integer, as zod 3's `.int()` (zod 4's refuses integers past 2^53, which zod 3 took). */
const integer = z.number().refine(Number.isInteger, 'an integer');
const id = integer.positive();
const count = integer.nonnegative();
const decimal = z.string().regex(DECIMAL_PATTERN, 'a decimal number as a string');

export const usageRecordedV1 = z.object({
  v: z.literal(1),
  // Any version and variant, as zod 3's `.uuid()` (zod 4's `uuid()` checks RFC 9562's).
  event_id: z.guid(),
  request_id: z.string().min(1).max(128),
  user_id: id,
  token_id: id.nullable(),
  token_name: z.string().max(64),
  channel_id: id.nullable(),
  group: z.string().min(1).max(64).regex(GROUP_NAME_PATTERN, 'group names are letters, digits, "_" and "-"'),
  model: z.string().min(1).max(128),
  upstream_model: z.string().max(128),
  prompt_tokens: count,
  completion_tokens: count,
  cached_tokens: count,
  /**
   * Prompt tokens written to the prompt cache, part of `prompt_tokens` apart from the cached ones, and
   * of them those written for an hour. Absent from events of calls that wrote none, and from every
   * event published before writes were priced: those were charged as 0 writes.
   */
  cache_write_tokens: count.optional(),
  cache_write_1h_tokens: count.optional(),
  // A safe integer: zod 4's `.int()`.
  quota: z.number().int().nonnegative(),
  /** The prices the charge was computed with (USD per 1M tokens) and the group ratio. */
  price: z.object({
    input: decimal,
    output: decimal,
    cached_input: decimal,
    group_ratio: decimal,
    /** The cache-write prices, when the model has them (absent: writes cost the input price). */
    cache_write: decimal.optional(),
    cache_write_1h: decimal.optional(),
  }),
  latency_ms: count,
  ttft_ms: count.nullable(),
  is_stream: z.boolean(),
  status: z.enum(['success', 'client_aborted', 'upstream_error']),
  created_at: count,
  /** The answer's own id (`chatcmpl-…`, `msg_…`), by which GET /v1/generation finds the call. */
  response_id: z.string().max(128).optional(),
  /** Why the answer ended (`stop`, `length`, `tool_calls`, …), when it said. */
  finish_reason: z.string().max(32).optional(),
});
export type UsageRecorded = z.infer<typeof usageRecordedV1>;
