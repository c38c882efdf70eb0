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

/**
 * `billingBalanceEvent(account).value` written in SQL, for a statement that publishes the accounts it
 * changed itself (the usage settlement): `row` names a row of the accounts table. The two are held
 * equal by test/integration/usage-settlement-statement.spec.ts.
 */
export const billingBalanceValueSql = (row: string): string =>
  `jsonb_build_object('v', 1, 'user_id', ${row}."user_id", 'quota', ${row}."quota",
    'used_quota', ${row}."used_quota", 'request_count', ${row}."request_count",
    'aff_quota', ${row}."aff_quota", 'aff_history_quota', ${row}."aff_history_quota",
    'version', ${row}."version", 'updated_at', floor(extract(epoch from ${row}."updated_at"))::bigint)`;
