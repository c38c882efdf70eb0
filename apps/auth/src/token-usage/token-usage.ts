import { TokenStatus } from '@tollgate/contracts';

export interface UsageOfToken {
  event_id: string;
  token_id: number | null;
  quota: number;
  created_at: number;
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
