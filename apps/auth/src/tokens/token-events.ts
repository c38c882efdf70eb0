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

/** A deleted key: compaction forgets it, relay drops it. */
export function identityTokenTombstone(id: number): OutgoingEvent {
  return { topic: TOPICS.identityToken.name, key: String(id), value: null };
}
