import type { PriceSnapshot, UsageRecorded } from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';
import type { NormalizedUsage } from '../canonical';

export type CallStatus = UsageRecorded['status'];

export interface ServedCall {
  eventId: string;
  requestId: string;
  caller: Caller;
  channelId: number | null;
  model: string;
  upstreamModel: string;
  price: PriceSnapshot;
  usage: NormalizedUsage;
  quota: number;
  latencyMs: number;
  ttftMs: number | null;
  isStream: boolean;
  status: CallStatus;
  /** Epoch seconds. */
  createdAt: number;
  /** The answer's id, when it had one; how it ended, when it said. */
  responseId?: string;
  finishReason?: string;
}

/** The id an answer carries: OpenAI's and Anthropic's `id`, Gemini's `responseId`. */
export function answerIdOf(answer: unknown): string | undefined {
  const record = answer as { id?: unknown; responseId?: unknown } | null;
  const id = record?.id ?? record?.responseId;
  return typeof id === 'string' ? id : undefined;
}

/** An id or reason from an upstream's answer, if it is a short plain string. */
const shortText = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value !== '' && value.length <= max && !/[\u0000-\u001f]/.test(value)
    ? value
    : undefined;

const whole = (value: number): number => Math.max(0, Math.round(value));

/**
 * The call's cache writes, as the charge counted them (capped as `actualQuota` caps them), only when
 * it wrote any: the event of a call without writes is the one it was before writes were priced.
 */
function addCacheWrites(event: UsageRecorded, usage: NormalizedUsage): void {
  const writes = Math.min(usage.cache_write_tokens ?? 0, event.prompt_tokens - event.cached_tokens);
  if (writes <= 0) return;
  event.cache_write_tokens = writes;
  const writesFor1h = Math.min(usage.cache_write_1h_tokens ?? 0, writes);
  if (writesFor1h > 0) event.cache_write_1h_tokens = writesFor1h;
}

/** The usage.recorded payload for one call: counts, charge and price snapshot, never its content. */
export function usageRecordedEvent(call: ServedCall): UsageRecorded {
  const event: UsageRecorded = {
    v: 1,
    event_id: call.eventId,
    request_id: call.requestId.slice(0, 128),
    user_id: call.caller.user.id,
    token_id: call.caller.token?.id ?? null,
    token_name: (call.caller.token?.name ?? call.caller.label ?? '').slice(0, 64),
    channel_id: call.channelId,
    group: call.caller.group,
    model: call.model.slice(0, 128),
    upstream_model: call.upstreamModel.slice(0, 128),
    prompt_tokens: call.usage.prompt_tokens,
    completion_tokens: call.usage.completion_tokens,
    cached_tokens: Math.min(call.usage.cached_tokens, call.usage.prompt_tokens),
    quota: call.quota,
    price: { ...call.price },
    latency_ms: whole(call.latencyMs),
    ttft_ms: call.ttftMs === null ? null : whole(call.ttftMs),
    is_stream: call.isStream,
    status: call.status,
    created_at: call.createdAt,
  };
  // Set, not spread in: spreading copied the event into a new object with two throwaway ones per call.
  const responseId = shortText(call.responseId, 128);
  if (responseId !== undefined) event.response_id = responseId;
  const finishReason = shortText(call.finishReason, 32);
  if (finishReason !== undefined) event.finish_reason = finishReason;
  addCacheWrites(event, call.usage);
  return event;
}
