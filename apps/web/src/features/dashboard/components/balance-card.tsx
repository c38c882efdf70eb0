import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../lib/routes';
import { useMoney } from '../../currency/use-money';
import { useAccount } from '../../session/use-account';
import { ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass } from '../../../ui/styles';
import { CurrencyFallbackNote } from './currency-fallback-note';

/** The balance, what has been spent and how many requests, in the chosen currency. */
export function BalanceCard({ showTopUp = true }: { showTopUp?: boolean }) {
  const { t } = useTranslation('dashboard');
  const account = useAccount();
  const money = useMoney();
  return (
    <section className={cardClass} aria-labelledby="balance-title">
      <h2 id="balance-title" className="text-sm font-medium text-slate-500">
        {t('balance_title')}
      </h2>
      {account.isPending && <Loading />}
      {account.isError && <ErrorState error={account.error} onRetry={() => void account.refetch()} />}
      {account.data && (
        <>
          <p data-testid="balance" className="mt-2 text-3xl font-bold text-slate-900">
            {money.formatQuota(account.data.quota)}
          </p>
          <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
            <div>
              <dt className="text-slate-500">{t('balance_used')}</dt>
              <dd className="font-medium text-slate-800">{money.formatQuota(account.data.used_quota)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('balance_requests')}</dt>
              <dd className="font-medium text-slate-800">{account.data.request_count}</dd>
            </div>
          </dl>
          <CurrencyFallbackNote money={money} />
          {showTopUp && (
            <Link to={ROUTES.dashboardPayment} className={`${buttonClass.primary} mt-4`}>
              {t('balance_top_up')}
            </Link>
          )}
        </>
      )}
    </section>
  );
}
