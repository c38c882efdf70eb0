import type { AttemptFailure } from './attempt-failure';

/**
 * An answer that says the channel itself cannot serve anybody until an operator acts: its key is
 * invalid or revoked, or its account has no quota left. `reason` names the kind and the
 * provider's status/type/code only, never the upstream message (it may echo part of the key).
 */
export interface ChannelFault {
  kind: 'invalid_key' | 'quota_exhausted';
  reason: string;
}

/** Provider types/codes that mean the key is not accepted, whatever the status (lower case). */
const INVALID_KEY_TOKENS = new Set([
  'invalid_api_key', // OpenAI
  'account_deactivated', // OpenAI
  'authentication_error', // Anthropic
  'api_key_invalid', // Gemini error detail reason
  'permission_denied', // Gemini status
]);

/** Provider types/codes that mean the account behind the key has run out of money or quota. */
const QUOTA_TOKENS = new Set([
  'insufficient_quota', // OpenAI
  'billing_hard_limit_reached', // OpenAI
  'billing_not_active', // OpenAI
  'billing_error', // Anthropic
]);

/** 403 types that are about who is calling, as opposed to what is asked (region, content policy). */
const FORBIDDEN_AUTH_TOKENS = new Set(['permission_error', 'unauthorized', 'forbidden', 'access_denied']);

const AUTH_WORDING = /api[ _-]?key|credential|authenticat|unauthori[sz]ed|suspended|deactivated/i;
const GEMINI_BAD_KEY_WORDING = /api key not valid/i;
const ANTHROPIC_CREDIT_WORDING = /credit balance/i;
const QUOTA_WORDING = /quota|billing/i;
/** Gemini reports per-minute rate limits as RESOURCE_EXHAUSTED too; those pass by themselves. */
const RATE_LIMIT_WORDING = /per[ _-]?minute|rate[ _-]?limit/i;

export function detectChannelFault(failure: AttemptFailure): ChannelFault | undefined {
  if (failure.kind !== 'http') return undefined;
  const type = failure.errorType?.toLowerCase();
  const code = failure.errorCode?.toLowerCase();
  const message = failure.message ?? '';
  const has = (tokens: ReadonlySet<string>) =>
    (type !== undefined && tokens.has(type)) || (code !== undefined && tokens.has(code));

  if (failure.status === 401 || has(INVALID_KEY_TOKENS)) return fault('invalid_key', failure);
  if (failure.status === 403 && (has(FORBIDDEN_AUTH_TOKENS) || AUTH_WORDING.test(message))) {
    return fault('invalid_key', failure);
  }
  if (type === 'invalid_argument' && GEMINI_BAD_KEY_WORDING.test(message))
    return fault('invalid_key', failure);
  if (failure.status === 402 || has(QUOTA_TOKENS)) return fault('quota_exhausted', failure);
  if (type === 'invalid_request_error' && ANTHROPIC_CREDIT_WORDING.test(message)) {
    return fault('quota_exhausted', failure);
  }
  if (
    (type === 'resource_exhausted' || code === 'resource_exhausted') &&
    QUOTA_WORDING.test(message) &&
    !RATE_LIMIT_WORDING.test(message)
  ) {
    return fault('quota_exhausted', failure);
  }
  return undefined;
}

function fault(kind: ChannelFault['kind'], failure: Extract<AttemptFailure, { kind: 'http' }>): ChannelFault {
  const words = [String(failure.status), failure.errorType, failure.errorCode].filter(Boolean).join(' ');
  return { kind, reason: `${kind === 'invalid_key' ? 'invalid key' : 'quota exhausted'} (${words})` };
}
