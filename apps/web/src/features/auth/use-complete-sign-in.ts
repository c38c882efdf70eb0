import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { readAgain } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import { ROUTES } from '../../lib/routes';
import type { SelfUser } from '../session/session-api';
import { storeUserId } from '../session/user-id-store';
import { notify } from '../shell/notify';

/**
 * Keeps the signed-in user's id (refusing an id ≤ 0), says so, and opens the dashboard. The price
 * list read before signing in is refetched: a signed-in user also sees their own group's models.
 */
export function useCompleteSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (user: SelfUser, successText: string) => {
      storeUserId(user.id);
      void readAgain(queryClient, queryKeys.pricing);
      notify.success(successText);
      navigate(ROUTES.dashboard, { replace: true });
    },
    [navigate, queryClient],
  );
}
