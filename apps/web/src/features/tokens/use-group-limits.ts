import { useQuery } from '@tanstack/react-query';
import type { TokenGroupLimits } from '@tollgate/contracts';
import { queryKeys } from '../../api/query-keys';
import { fetchGroupLimits } from './tokens-api';

export type GroupLimits = TokenGroupLimits;

/**
 * The rate limits of the signed-in user's group, as auth checks their keys against them (a key is
 * always served in its owner's group). Undefined until auth has answered; a group GroupRateLimits
 * does not name has no limits (all 0).
 */
export function useGroupLimits(): GroupLimits | undefined {
  return useQuery({ queryKey: queryKeys.tokenGroupLimits, queryFn: fetchGroupLimits }).data;
}
