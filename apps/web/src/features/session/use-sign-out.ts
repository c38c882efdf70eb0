import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../api/error-message';
import { persistOptions } from '../../api/app-query';
import { ROUTES } from '../../lib/routes';
import { notify } from '../shell/notify';
import { logout } from './session-api';
import { forgetSession } from './sign-out';

/**
 * SPEC §4 logout: the server session ends first; on success the user, the stored id, the query
 * cache and its persisted copy are forgotten and the user lands on /; otherwise the error is shown.
 */
export function useSignOut() {
  const { t } = useTranslation('session');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSuccess: async () => {
      await forgetSession(queryClient, persistOptions.persister);
      notify.success(t('logout_success'));
      navigate(ROUTES.home, { replace: true });
    },
    onError: (error) => notify.destructive(errorMessage(error, t)),
  });
}
