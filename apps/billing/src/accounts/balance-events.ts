import { TOPICS, type BillingBalance } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { Account } from './account.entity';

/** The account as the compacted billing.balance topic carries it, keyed by user id. */
export function billingBalanceEvent(account: Account): OutgoingEvent {
  const value: BillingBalance = {
    v: 1,
    user_id: account.userId,
    quota: account.quota,
    used_quota: account.usedQuota,
    request_count: account.requestCount,
    aff_quota: account.affQuota,
    aff_history_quota: account.affHistoryQuota,
    version: account.version,
    updated_at: Math.floor(account.updatedAt.getTime() / 1000),
  };
  return { topic: TOPICS.billingBalance.name, key: String(account.userId), value };
}
