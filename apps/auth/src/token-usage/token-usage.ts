import { TokenStatus } from '@tollgate/contracts';

/** What a batch of usage events adds up to for one key. */
export interface TokenUsageTotal {
  tokenId: number;
  quota: number;
  /** The latest use, unix seconds. */
  lastUsedAt: number;
}

export interface UsageOfToken {
  event_id: string;
  token_id: number | null;
  quota: number;
  created_at: number;
}

/** Sums the events of each key (events without a key, e.g. chat's own calls, count for none). */
export function totalsByToken(events: readonly UsageOfToken[]): TokenUsageTotal[] {
  const totals = new Map<number, TokenUsageTotal>();
  for (const event of events) {
    if (event.token_id === null) continue;
    const total = totals.get(event.token_id) ?? { tokenId: event.token_id, quota: 0, lastUsedAt: 0 };
    total.quota += event.quota;
    total.lastUsedAt = Math.max(total.lastUsedAt, event.created_at);
    totals.set(event.token_id, total);
  }
  return [...totals.values()];
}

export interface TokenQuotaState {
  status: TokenStatus;
  remainQuota: number;
  usedQuota: number;
  unlimitedQuota: boolean;
}

/**
 * A key after `quota` more was charged through it: used grows; a limited key's remainder shrinks
 * (never below zero) and an enabled key whose remainder is gone becomes exhausted.
 */
export function afterCharge(state: TokenQuotaState, quota: number): TokenQuotaState {
  if (state.unlimitedQuota) return { ...state, usedQuota: state.usedQuota + quota };
  const remainQuota = Math.max(0, state.remainQuota - quota);
  const exhausted = remainQuota === 0 && state.status === TokenStatus.Enabled;
  return {
    ...state,
    usedQuota: state.usedQuota + quota,
    remainQuota,
    status: exhausted ? TokenStatus.Exhausted : state.status,
  };
}
