import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { onUnauthorized } from '../../../api/client';
import { persistOptions, queryClient } from '../../../api/app-query';
import { ROUTES } from '../../../lib/routes';
import { notify } from '../../shell/notify';
import { useAccount } from '../use-account';
import { forgetSession } from '../sign-out';

/**
 * Looks the stored user up at start-up (SPEC §4); when any call made as that user answers 401,
 * says 'Авторизация не удалась' / 'выход из системы', forgets the session and goes to /.
 */
export function SessionGuard() {
  const { t } = useTranslation('session');
  const navigate = useNavigate();
  useAccount();

  useEffect(
    () =>
      onUnauthorized(() => {
        notify.destructive(t('auth_failed'), { description: t('signing_out'), id: 'session-expired' });
        void forgetSession(queryClient, persistOptions.persister).then(() => navigate(ROUTES.home));
      }),
    [navigate, t],
  );
  return null;
}
