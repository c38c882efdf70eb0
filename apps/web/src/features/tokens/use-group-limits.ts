import { limitsOfGroup, type RateLimits } from '@tollgate/contracts';
import { useAccount } from '../session/use-account';
import { useSystemStatus } from '../system/use-system-status';

export interface GroupLimits {
  group: string;
  limits: RateLimits;
}

/**
 * The rate limits of a key's group, as auth checks the key against them: the key's own group when
 * it names one, else its owner's (the signed-in user). Undefined until /api/status and the
 * account are known; a group that GroupRateLimits does not name has no limits.
 */
export function useGroupLimits(keyGroup: string | undefined): GroupLimits | undefined {
  const status = useSystemStatus();
  const account = useAccount();
  if (!status.data) return undefined;
  const group = keyGroup || account.data?.group;
  if (group === undefined) return undefined;
  return { group, limits: limitsOfGroup(status.data.group_rate_limits, group) };
}
