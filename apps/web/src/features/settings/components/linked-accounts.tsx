import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OAUTH_PROVIDERS, type OAuthProvider } from '../../../app/routes';
import { errorMessage } from '../../../api/error-message';
import { buttonClass, cardClass } from '../../../ui/styles';
import { FormError } from '../../auth/components/form-message';
import { beginOAuth } from '../../auth/begin-oauth';
import { isOAuthEnabled, oauthClientId } from '../../auth/oauth';
import type { Account } from '../../session/session-api';
import { useSystemStatus } from '../../system/use-system-status';

/** Which GitHub, Google and Discord accounts are linked; linking goes through the provider. */
export function LinkedAccounts({ account }: { account: Account }) {
  const { t } = useTranslation('settings');
  const status = useSystemStatus();
  const [problem, setProblem] = useState<string | null>(null);
  const linkedId = (provider: OAuthProvider) => account[`${provider}_id`] ?? '';

  const link = async (provider: OAuthProvider) => {
    if (!status.data) return;
    const label = t(`auth:provider_${provider}`);
    if (!oauthClientId(status.data, provider))
      return setProblem(t('auth:oauth_not_configured', { provider: label }));
    setProblem(null);
    try {
      await beginOAuth(provider, status.data);
    } catch (error) {
      setProblem(errorMessage(error, t));
    }
  };

  return (
    <section className={cardClass} aria-labelledby="linked-title">
      <h2 id="linked-title" className="text-lg font-semibold text-slate-900">
        {t('linked_title')}
      </h2>
      {status.isError && <p className="mt-2 text-sm text-slate-500">{t('common:status_fetch_failed')}</p>}
      <ul className="mt-3 divide-y divide-slate-100">
        {OAUTH_PROVIDERS.map((provider) => {
          const id = linkedId(provider);
          const available = status.data ? isOAuthEnabled(status.data, provider) : false;
          return (
            <li key={provider} className="flex items-center justify-between gap-3 py-3 text-sm">
              <div>
                <p className="font-medium text-slate-800">{t(`auth:provider_${provider}`)}</p>
                <p className="text-xs text-slate-500">
                  {id ? t('linked_as', { id }) : available ? t('not_linked') : t('provider_off')}
                </p>
              </div>
              {!id && available && (
                <button type="button" className={buttonClass.secondary} onClick={() => void link(provider)}>
                  {t('link')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <FormError message={problem} />
    </section>
  );
}
