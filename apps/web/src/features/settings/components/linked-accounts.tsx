import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OAUTH_PROVIDERS, type OAuthProvider } from '@tollgate/contracts';
import { errorMessage } from '../../../api/error-message';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { buttonClass, cardClass } from '../../../ui/styles';
import { FormError } from '../../../ui/form-error';
import { beginOAuth } from '../../auth/begin-oauth';
import { isOAuthEnabled, oauthClientId } from '../../auth/oauth';
import type { Account } from '../../session/session-api';
import { notify } from '../../shell/notify';
import { useSystemStatus } from '../../system/use-system-status';
import { useUnlinkProvider } from '../use-unlink-provider';

/**
 * Which GitHub, Google and Discord accounts are linked: linking goes through the provider,
 * unlinking asks first and is refused by auth when it would leave no way to sign in.
 */
export function LinkedAccounts({ account }: { account: Account }) {
  const { t } = useTranslation('settings');
  const status = useSystemStatus();
  const unlink = useUnlinkProvider();
  const [problem, setProblem] = useState<string | null>(null);
  const [unlinking, setUnlinking] = useState<OAuthProvider | null>(null);
  const linkedId = (provider: OAuthProvider) => account[`${provider}_id`] ?? '';
  const label = (provider: OAuthProvider) => t(`auth:provider_${provider}`);

  const link = async (provider: OAuthProvider) => {
    if (!status.data) return;
    if (!oauthClientId(status.data, provider))
      return setProblem(t('auth:oauth_not_configured', { provider: label(provider) }));
    setProblem(null);
    try {
      await beginOAuth(provider, status.data);
    } catch (error) {
      setProblem(errorMessage(error, t));
    }
  };

  const confirmUnlink = () => {
    if (!unlinking) return;
    const provider = unlinking;
    setProblem(null);
    unlink.mutate(provider, {
      onSuccess: (message) => notify.success(message || t('unlinked', { provider: label(provider) })),
      onError: (error) => setProblem(errorMessage(error, t)),
      onSettled: () => setUnlinking(null),
    });
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
                <p className="font-medium text-slate-800">{label(provider)}</p>
                <p className="text-xs text-slate-500">
                  {id ? t('linked_as', { id }) : available ? t('not_linked') : t('provider_off')}
                </p>
              </div>
              {id ? (
                <button
                  type="button"
                  className={buttonClass.secondary}
                  aria-label={t('unlink_provider', { provider: label(provider) })}
                  onClick={() => setUnlinking(provider)}
                >
                  {t('unlink')}
                </button>
              ) : (
                available && (
                  <button
                    type="button"
                    className={buttonClass.secondary}
                    aria-label={t('link_provider', { provider: label(provider) })}
                    onClick={() => void link(provider)}
                  >
                    {t('link')}
                  </button>
                )
              )}
            </li>
          );
        })}
      </ul>
      <FormError message={problem} />
      <ConfirmDialog
        open={unlinking !== null}
        onOpenChange={(open) => !open && setUnlinking(null)}
        title={t('unlink_title')}
        description={unlinking ? t('unlink_text', { provider: label(unlinking) }) : ''}
        confirmLabel={t('unlink')}
        busy={unlink.isPending}
        onConfirm={confirmUnlink}
      />
    </section>
  );
}
