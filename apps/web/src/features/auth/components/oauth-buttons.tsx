import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SystemStatus } from '@tollgate/contracts';
import { OAUTH_PROVIDERS, type OAuthProvider } from '@tollgate/contracts';
import { errorMessage } from '../../../api/error-message';
import { useSystemStatus } from '../../system/use-system-status';
import { beginOAuth } from '../begin-oauth';
import { isOAuthEnabled, oauthClientId } from '../oauth';
import { validateOAuthConsent } from '../validation';

interface OAuthButtonsProps {
  /** On the register tab both consents are needed before leaving for the provider (SPEC §5). */
  consent?: { agreeToTerms: boolean; agreeToDataProcessing: boolean };
  onError: (message: string) => void;
  /** Leaves the app for the provider's page; replaced in tests. */
  redirect?: (url: string) => void;
}

/** Buttons only for the providers the status reports enabled. */
export function OAuthButtons({
  consent,
  onError,
  redirect = (url) => window.location.assign(url),
}: OAuthButtonsProps) {
  const { t } = useTranslation('auth');
  const status = useSystemStatus();
  const [pending, setPending] = useState<OAuthProvider | null>(null);

  if (status.isError) {
    return <p className="text-center text-xs text-slate-500">{t('common:status_fetch_failed')}</p>;
  }
  const data: SystemStatus | undefined = status.data;
  const enabled = data ? OAUTH_PROVIDERS.filter((provider) => isOAuthEnabled(data, provider)) : [];
  if (!data || enabled.length === 0) return null;

  async function start(provider: OAuthProvider, current: SystemStatus) {
    const label = t(`provider_${provider}`);
    const consentError = consent && validateOAuthConsent(consent.agreeToTerms, consent.agreeToDataProcessing);
    if (consentError) return onError(t(consentError));
    if (!oauthClientId(current, provider)) return onError(t('oauth_not_configured', { provider: label }));
    setPending(provider);
    try {
      await beginOAuth(provider, current, redirect);
    } catch (failure) {
      onError(errorMessage(failure, t));
    } finally {
      setPending(null);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <p className="text-center text-xs uppercase tracking-wide text-slate-400">{t('or_continue_with')}</p>
      {enabled.map((provider) => (
        <button
          key={provider}
          type="button"
          disabled={pending !== null}
          onClick={() => void start(provider, data)}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60"
        >
          {t('continue_with', { provider: t(`provider_${provider}`) })}
        </button>
      ))}
    </div>
  );
}
