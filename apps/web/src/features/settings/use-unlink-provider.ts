import { useMutation, useQueryClient } from '@tanstack/react-query';
import { readAgain } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import type { OAuthProvider } from '@tollgate/contracts';
import { unlinkOAuth } from './settings-api';

/**
 * Unlinks a provider, then reads self again so the linked ids on screen are the server's.
 * Auth refuses to remove the account's only way to sign in; that refusal is the mutation's error.
 */
export function useUnlinkProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: OAuthProvider) => unlinkOAuth(provider),
    onSuccess: () => readAgain(queryClient, queryKeys.self),
  });
}
