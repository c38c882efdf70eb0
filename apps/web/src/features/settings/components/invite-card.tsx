import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/query-keys';
import { CodeBlock } from '../../../ui/code-block';
import { ErrorState, Loading } from '../../../ui/query-state';
import { cardClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import type { Account } from '../../session/session-api';
import { fetchAffiliateCode } from '../settings-api';

/** The invite link (affiliate programme) and what it has earned. */
export function InviteCard({ account }: { account: Account }) {
  const { t } = useTranslation('settings');
  const money = useMoney();
  const code = useQuery({ queryKey: queryKeys.affiliate, queryFn: fetchAffiliateCode, staleTime: Infinity });
  return (
    <section className={cardClass} aria-labelledby="invite-title">
      <h2 id="invite-title" className="text-lg font-semibold text-slate-900">
        {t('invite_title')}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{t('invite_text')}</p>
      <div className="mt-3">
        {code.isPending && <Loading />}
        {code.isError && <ErrorState error={code.error} onRetry={() => void code.refetch()} />}
        {code.data && (
          <CodeBlock code={`${window.location.origin}/login?aff=${encodeURIComponent(code.data)}`} />
        )}
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-3 text-sm">
        <div>
          <dt className="text-slate-500">{t('invite_count')}</dt>
          <dd className="font-medium">{account.aff_count}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('invite_available')}</dt>
          <dd className="font-medium">{money.formatQuota(account.aff_quota)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">{t('invite_total')}</dt>
          <dd className="font-medium">{money.formatQuota(account.aff_history_quota)}</dd>
        </div>
      </dl>
    </section>
  );
}
