import { TOKEN_NEVER_EXPIRES, TokenStatus, type TokenView } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { buttonClass } from '../../../ui/styles';
import { intlLocale } from '../../../i18n/language';

interface TokenRowProps {
  token: TokenView;
  formatQuota: (quota: number) => string;
  onCopy: () => void;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
  busy: boolean;
}

const STATUS_CLASS: Record<TokenStatus, string> = {
  [TokenStatus.Enabled]: 'bg-emerald-50 text-emerald-700',
  [TokenStatus.Disabled]: 'bg-slate-100 text-slate-600',
  [TokenStatus.Expired]: 'bg-amber-50 text-amber-700',
  [TokenStatus.Exhausted]: 'bg-red-50 text-red-700',
};

/** One key: name and state, masked key, spending, limits and what can be done with it. */
export function TokenRow({ token, formatQuota, onCopy, onEdit, onToggle, onDelete, busy }: TokenRowProps) {
  const { t, i18n } = useTranslation('tokens');
  const date = (seconds: number) =>
    new Intl.DateTimeFormat(intlLocale(i18n.language), {
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(seconds * 1000));
  const enabled = token.status === TokenStatus.Enabled;
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const rateLimits = [
    token.rpm_limit > 0 && t('rate_rpm', { value: number.format(token.rpm_limit) }),
    token.tpm_limit > 0 && t('rate_tpm', { value: number.format(token.tpm_limit) }),
    token.concurrency_limit > 0 && t('rate_concurrency', { value: number.format(token.concurrency_limit) }),
  ].filter((text) => text !== false);
  const aliases = Object.entries(token.model_aliases).map(([asked, served]) => `${asked} → ${served}`);
  return (
    <li className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:gap-6" data-testid="token-row">
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <p className="truncate font-medium text-slate-900">{token.name}</p>
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[token.status]}`}>
            {t(`status_${token.status}`)}
          </span>
        </div>
        <p className="mt-1 font-mono text-xs text-slate-500">{token.key}</p>
        <dl className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
          <div className="flex gap-1">
            <dt>{t('used')}:</dt>
            <dd className="text-slate-700">{formatQuota(token.used_quota)}</dd>
          </div>
          <div className="flex gap-1">
            <dt>{t('remaining')}:</dt>
            <dd className="text-slate-700">
              {token.unlimited_quota ? t('unlimited') : formatQuota(token.remain_quota)}
            </dd>
          </div>
          <div className="flex gap-1">
            <dt>{t('expires')}:</dt>
            <dd className="text-slate-700">
              {token.expired_time === TOKEN_NEVER_EXPIRES ? t('never') : date(token.expired_time)}
            </dd>
          </div>
          {token.model_limits_enabled && (
            <div className="flex gap-1">
              <dt>{t('models')}:</dt>
              <dd className="text-slate-700">{token.model_limits.split(',').join(', ')}</dd>
            </div>
          )}
          {token.allow_ips && (
            <div className="flex gap-1">
              <dt>{t('ips')}:</dt>
              <dd className="text-slate-700">{token.allow_ips.split('\n').join(', ')}</dd>
            </div>
          )}
          {aliases.length > 0 && (
            <div className="flex gap-1" data-testid="token-aliases">
              <dt>{t('aliases')}:</dt>
              <dd className="font-mono text-slate-700">{aliases.join(', ')}</dd>
            </div>
          )}
          {rateLimits.length > 0 && (
            <div className="flex gap-1" data-testid="token-rate-limits">
              <dt>{t('rate_limits')}:</dt>
              <dd className="text-slate-700">{rateLimits.join(' · ')}</dd>
            </div>
          )}
        </dl>
      </div>
      <div className="flex flex-wrap gap-1">
        <button type="button" className={buttonClass.ghost} onClick={onCopy} disabled={busy}>
          {t('copy')}
        </button>
        <button type="button" className={buttonClass.ghost} onClick={onEdit}>
          {t('edit')}
        </button>
        {(enabled || token.status === TokenStatus.Disabled) && (
          <button type="button" className={buttonClass.ghost} onClick={onToggle} disabled={busy}>
            {enabled ? t('disable') : t('enable')}
          </button>
        )}
        <button
          type="button"
          className={`${buttonClass.ghost} text-red-600 hover:text-red-700`}
          onClick={onDelete}
        >
          {t('delete')}
        </button>
      </div>
    </li>
  );
}
