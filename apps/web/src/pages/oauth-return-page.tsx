import '../i18n/namespaces/auth';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { OAuthProvider } from '@tollgate/contracts';
import { loginPath } from '../lib/routes';
import { errorMessage } from '../api/error-message';
import { exchangeOAuthCode } from '../features/auth/auth-api';
import { useCompleteSignIn } from '../features/auth/use-complete-sign-in';
import { clearOAuthState, readOAuthState } from '../features/auth/oauth';

/** /oauth/<provider>: trades the provider's code and our stored state for a session (SPEC §4). */
export function OAuthReturnPage({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const completeSignIn = useCompleteSignIn();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const state = readOAuthState(provider);
    if (!state) {
      setError(t('oauth_state_not_found', { provider: t(`provider_${provider}`) }));
      return;
    }
    exchangeOAuthCode(provider, params.get('code') ?? '', state)
      .then((user) => {
        clearOAuthState(provider);
        completeSignIn(user, t('login_success'));
      })
      .catch((failure: unknown) => setError(errorMessage(failure, t)));
  }, [provider, params, completeSignIn, t]);

  return (
    <section className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-4 p-8 text-center">
      {error ? (
        <>
          <p role="alert" className="text-red-700">
            {error}
          </p>
          <Link to={loginPath('login')} className="text-indigo-600 hover:underline">
            {t('oauth_back_to_login')}
          </Link>
        </>
      ) : (
        <p className="text-slate-600">{t('oauth_signing_in', { provider: t(`provider_${provider}`) })}</p>
      )}
    </section>
  );
}
