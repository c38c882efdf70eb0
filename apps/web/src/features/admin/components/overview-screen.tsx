import { useQuery } from '@tanstack/react-query';
import type { DailyModelUsage } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { adminUserPath } from '../../../lib/routes';
import { queryKeys } from '../../../api/query-keys';
import { ErrorState, Loading } from '../../../ui/query-state';
import { cardClass } from '../../../ui/styles';
import { cacheTotals, dailyUsage } from '../../activity/daily-usage';
import { addDays, moscowToday, type DayRange } from '../../activity/date-range';
import { LazyDailyUsageChart } from '../../charts/components/lazy-daily-usage-chart';
import { useMoney } from '../../currency/use-money';
import { fetchAllStatistics, fetchChannelCounts, fetchOverview } from '../admin-api';
import { intlLocale } from '../../../i18n/language';

const WINDOWS = [1, 7, 30] as const;

interface Totals {
  requests: number;
  tokens: number;
  quota: number;
}

/** Requests, tokens and charged quota over the last `days` Moscow days of the rows. */
export function totalsSince(rows: readonly DailyModelUsage[], firstDay: string): Totals {
  return rows
    .filter((row) => row.date >= firstDay)
    .reduce(
      (sum, row) => ({
        requests: sum.requests + row.requests,
        tokens: sum.tokens + row.prompt_tokens + row.completion_tokens,
        quota: sum.quota + row.quota,
      }),
      { requests: 0, tokens: 0, quota: 0 },
    );
}

/** The models that earned most over the rows, highest first. */
export function topModels(
  rows: readonly DailyModelUsage[],
  count = 5,
): { model: string; quota: number; requests: number }[] {
  const byModel = new Map<string, { model: string; quota: number; requests: number }>();
  for (const row of rows) {
    const entry = byModel.get(row.model_name) ?? { model: row.model_name, quota: 0, requests: 0 };
    entry.quota += row.quota;
    entry.requests += row.requests;
    byModel.set(row.model_name, entry);
  }
  return [...byModel.values()].sort((a, b) => b.quota - a.quota).slice(0, count);
}

/** The platform at a glance: today, 7 and 30 Moscow days of usage and charges, top models, channel health. */
export function OverviewScreen() {
  const { t, i18n } = useTranslation('admin');
  const money = useMoney();
  const today = moscowToday();
  const range: DayRange = { start: addDays(today, -29), end: today };
  const statistics = useQuery({
    queryKey: queryKeys.adminStatistics(range.start, range.end),
    queryFn: () => fetchAllStatistics(range.start, range.end),
  });
  // Under the channels' key, so a change on the channels screen reads the counts again.
  const channels = useQuery({
    queryKey: queryKeys.adminChannelPage(0, { counts: true }),
    queryFn: fetchChannelCounts,
  });
  const overview = useQuery({ queryKey: queryKeys.adminOverview, queryFn: fetchOverview });
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const percent = new Intl.NumberFormat(intlLocale(i18n.language), {
    style: 'percent',
    maximumFractionDigits: 1,
  });
  if (statistics.isPending) return <Loading />;
  if (statistics.isError)
    return <ErrorState error={statistics.error} onRetry={() => void statistics.refetch()} />;
  const rows = statistics.data;
  const models = topModels(rows);
  const topUsers = overview.data?.top_users ?? [];
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-4 md:grid-cols-3">
        {WINDOWS.map((days) => {
          const firstDay = addDays(today, -(days - 1));
          const totals = totalsSince(rows, firstDay);
          const cache = cacheTotals(rows, { start: firstDay, end: today });
          const window = overview.data?.windows.find((entry) => entry.days === days);
          return (
            <section
              key={days}
              className={cardClass}
              aria-label={t(`overview_window_${days}`)}
              data-testid={`overview-${days}`}
            >
              <h2 className="text-sm font-medium text-slate-500">{t(`overview_window_${days}`)}</h2>
              <p className="mt-2 text-2xl font-semibold">{money.formatQuota(totals.quota)}</p>
              <p className="mt-1 text-sm text-slate-600">
                {t('overview_requests', { count: totals.requests })} ·{' '}
                {t('overview_tokens', { count: totals.tokens })}
              </p>
              {cache.read + cache.written5m + cache.written1h > 0 ? (
                <p className="mt-1 text-xs text-slate-500" data-testid={`overview-cache-${days}`}>
                  {t('overview_cache', {
                    read: number.format(cache.read),
                    written_5m: number.format(cache.written5m),
                    written_1h: number.format(cache.written1h),
                  })}
                </p>
              ) : null}
              {window ? (
                <p className="mt-1 text-sm text-slate-600" data-testid={`overview-activity-${days}`}>
                  {t('overview_active_users', { count: window.active_users })} ·{' '}
                  {t('overview_error_rate', {
                    rate: percent.format(window.requests === 0 ? 0 : window.errors / window.requests),
                  })}
                </p>
              ) : null}
            </section>
          );
        })}
      </div>
      <section className={cardClass} aria-labelledby="overview-chart-title">
        <h2 id="overview-chart-title" className="text-lg font-semibold">
          {t('overview_chart')}
        </h2>
        <div className="mt-4">
          <LazyDailyUsageChart
            days={dailyUsage(rows, range)}
            formatQuota={money.formatQuota}
            quotaToAmount={money.quotaToAmount}
          />
        </div>
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        <section className={cardClass} aria-labelledby="overview-models-title">
          <h2 id="overview-models-title" className="text-lg font-semibold">
            {t('overview_top_models')}
          </h2>
          {models.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">{t('overview_nothing_yet')}</p>
          ) : null}
          <ol className="mt-3 flex flex-col gap-2 text-sm">
            {models.map((entry) => (
              <li key={entry.model} className="flex justify-between gap-3" data-testid="overview-model">
                <span className="font-medium">{entry.model}</span>
                <span className="text-slate-600">
                  {money.formatQuota(entry.quota)} · {t('overview_requests', { count: entry.requests })}
                </span>
              </li>
            ))}
          </ol>
        </section>
        <section className={cardClass} aria-labelledby="overview-channels-title">
          <h2 id="overview-channels-title" className="text-lg font-semibold">
            {t('overview_channels')}
          </h2>
          {channels.data ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="overview-channels">
              {t('overview_channels_state', {
                enabled: channels.data.enabled,
                total: channels.data.total,
                auto: channels.data.autoDisabled,
              })}
            </p>
          ) : null}
          {overview.data ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="overview-lag">
              {overview.data.consumer_lag === null
                ? t('overview_lag_unknown')
                : t('overview_lag', { count: overview.data.consumer_lag })}
            </p>
          ) : null}
        </section>
        <section className={cardClass} aria-labelledby="overview-users-title">
          <h2 id="overview-users-title" className="text-lg font-semibold">
            {t('overview_top_users')}
          </h2>
          {overview.data && topUsers.length === 0 ? (
            <p className="mt-3 text-sm text-slate-500">{t('overview_nothing_yet')}</p>
          ) : null}
          <ol className="mt-3 flex flex-col gap-2 text-sm">
            {topUsers.map((entry) => (
              <li key={entry.user_id} className="flex justify-between gap-3" data-testid="overview-user">
                <Link
                  to={adminUserPath(entry.user_id)}
                  className="font-medium text-indigo-600 hover:underline"
                >
                  {entry.username ?? `#${entry.user_id}`}
                </Link>
                <span className="text-slate-600">
                  {money.formatQuota(entry.quota)} · {t('overview_requests', { count: entry.requests })}
                </span>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}
