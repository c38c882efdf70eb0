import type { TokenView } from '@tollgate/contracts';
import type { Token } from './token.entity';

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A key as the owner's lists and reads show it: new-api's fields, the key masked. */
export function tokenView(token: Token): TokenView {
  return {
    id: token.id,
    user_id: token.userId,
    key: token.keyMasked,
    name: token.name,
    status: token.status,
    created_time: seconds(token.createdAt),
    accessed_time: token.accessedAt ? seconds(token.accessedAt) : 0,
    expired_time: token.expiredTime,
    remain_quota: token.remainQuota,
    unlimited_quota: token.unlimitedQuota,
    used_quota: token.usedQuota,
    model_limits_enabled: token.modelLimitsEnabled,
    model_limits: token.modelLimits.join(','),
    allow_ips: token.allowIps.join('\n'),
    group: token.group,
    rpm_limit: token.rpmLimit,
    tpm_limit: token.tpmLimit,
    concurrency_limit: token.concurrencyLimit,
    model_aliases: token.modelAliases,
  };
}
