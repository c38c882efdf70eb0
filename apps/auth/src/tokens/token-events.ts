import { TOPICS, type IdentityToken } from '@tollgate/contracts';
import type { OutgoingEvent } from '@tollgate/events';
import type { Token } from './token.entity';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** The whole key on the compacted identity.token topic, keyed by id; its hash, never the key. */
export function identityTokenEvent(token: Token): OutgoingEvent {
  const value: IdentityToken = {
    v: 1,
    id: token.id,
    user_id: token.userId,
    name: token.name,
    key_hash: token.keyHash,
    status: token.status,
    expired_time: token.expiredTime,
    remain_quota: token.remainQuota,
    unlimited_quota: token.unlimitedQuota,
    model_limits_enabled: token.modelLimitsEnabled,
    model_limits: token.modelLimits,
    allow_ips: token.allowIps,
    group: token.group,
    rpm_limit: token.rpmLimit,
    tpm_limit: token.tpmLimit,
    concurrency_limit: token.concurrencyLimit,
    model_aliases: token.modelAliases,
    used_quota: token.usedQuota,
    updated_at: seconds(token.updatedAt),
  };
  return { topic: TOPICS.identityToken.name, key: String(token.id), value };
}

/**
 * `identityTokenEvent(token).value` written in SQL, for a statement that publishes the keys it changed
 * itself (token usage): `row` names a row of the tokens table. The two are held equal by
 * test/integration/token-usage-statement.spec.ts.
 */
export const identityTokenValueSql = (row: string): string =>
  `jsonb_build_object('v', 1, 'id', ${row}."id", 'user_id', ${row}."user_id", 'name', ${row}."name",
    'key_hash', ${row}."key_hash", 'status', ${row}."status", 'expired_time', ${row}."expired_time",
    'remain_quota', ${row}."remain_quota", 'unlimited_quota', ${row}."unlimited_quota",
    'model_limits_enabled', ${row}."model_limits_enabled", 'model_limits', ${row}."model_limits",
    'allow_ips', ${row}."allow_ips", 'group', ${row}."group", 'rpm_limit', ${row}."rpm_limit",
    'tpm_limit', ${row}."tpm_limit", 'concurrency_limit', ${row}."concurrency_limit",
    'model_aliases', ${row}."model_aliases", 'used_quota', ${row}."used_quota",
    'updated_at', floor(extract(epoch from ${row}."updated_at"))::bigint)`;

/** A deleted key: compaction forgets it, relay drops it. */
export function identityTokenTombstone(id: number): OutgoingEvent {
  return { topic: TOPICS.identityToken.name, key: String(id), value: null };
}
