import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dailyUsage } from '../../activity/daily-usage';
import { defaultRange } from '../../activity/date-range';
import { useStatistics } from '../../activity/use-activity-queries';
import { LazyDailyUsageChart } from '../../charts/components/lazy-daily-usage-chart';
import { useMoney } from '../../currency/use-money';
import { ErrorState, Loading } from '../../../ui/query-state';
import { cardClass } from '../../../ui/styles';

/** Spending over the last 14 days (SPEC §2 dashboard home). */
export function UsageCard() {
  const { t } = useTranslation('dashboard');
  const range = useMemo(() => defaultRange(), []);
  const statistics = useStatistics(range);
  const money = useMoney();
  const days = useMemo(
    () => (statistics.data ? dailyUsage(statistics.data, range) : []),
    [statistics.data, range],
  );
  const total = days.reduce((sum, day) => sum + day.quota, 0);
  return (
    <section className={cardClass} aria-labelledby="usage-title">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="usage-title" className="text-sm font-medium text-slate-500">
          {t('usage_title')}
        </h2>
        {statistics.data && (
          <p className="text-sm font-semibold text-slate-800">{money.formatQuota(total)}</p>
        )}
      </div>
      <div className="mt-4">
        {statistics.isPending && <Loading />}
        {statistics.isError && (
          <ErrorState error={statistics.error} onRetry={() => void statistics.refetch()} />
        )}
        {statistics.data && (
          <LazyDailyUsageChart
            days={days}
            formatQuota={money.formatQuota}
            quotaToAmount={money.quotaToAmount}
          />
        )}
      </div>
    </section>
  );
}
