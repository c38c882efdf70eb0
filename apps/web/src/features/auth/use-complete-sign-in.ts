import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '../../lib/routes';
import type { SelfUser } from '../session/session-api';
import { storeUserId } from '../session/user-id-store';
import { notify } from '../shell/notify';

/** Keeps the signed-in user's id (refusing an id ≤ 0), says so, and opens the dashboard. */
export function useCompleteSignIn() {
  const navigate = useNavigate();
  return useCallback(
    (user: SelfUser, successText: string) => {
      storeUserId(user.id);
      notify.success(successText);
      navigate(ROUTES.dashboard, { replace: true });
    },
    [navigate],
  );
}
