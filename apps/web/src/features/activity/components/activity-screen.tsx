import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../ui/page-header';
import { Pager } from '../../../ui/pager';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass } from '../../../ui/styles';
import { TextField } from '../../../ui/text-field';
import { LazyDailyUsageChart } from '../../charts/components/lazy-daily-usage-chart';
import { useMoney } from '../../currency/use-money';
import { FormError } from '../../../ui/form-error';
import { LOG_PAGE_SIZE, type LogFilters } from '../activity-api';
import { cacheTotals, dailyUsage } from '../daily-usage';
import { defaultRange, rangeProblem, rangeSeconds, type DayRange } from '../date-range';
import { useLogs, useStatistics } from '../use-activity-queries';
import { useExportLogs } from '../use-export-logs';
import { CacheTotalsLine } from './cache-totals-line';
import { LogsTable } from './logs-table';

/** SPEC §2 activity: a date range under 31 days (14 days back by default), records, chart, CSV export. */
export function ActivityScreen() {
  const { t } = useTranslation('activity');
  const money = useMoney();
  const [range, setRange] = useState<DayRange>(() => defaultRange());
  const [modelName, setModelName] = useState('');
  const [tokenName, setTokenName] = useState('');
  const [page, setPage] = useState(1);
  const problem = rangeProblem(range);
  const bounds = problem ? null : rangeSeconds(range);
  const filters: LogFilters = {
    startTimestamp: bounds?.start ?? 0,
    endTimestamp: bounds?.end ?? 0,
    modelName: modelName.trim(),
    tokenName: tokenName.trim(),
  };
  const logs = useLogs(filters, page, !problem);
  const statistics = useStatistics(range, !problem);
  const days = useMemo(
    () => (statistics.data && !problem ? dailyUsage(statistics.data, range) : []),
    [statistics.data, range, problem],
  );
  const cache = useMemo(
    () => (statistics.data && !problem ? cacheTotals(statistics.data, range) : null),
    [statistics.data, range, problem],
  );
  const exporter = useExportLogs();

  const changeRange = (next: Partial<DayRange>) => {
    setRange((current) => ({ ...current, ...next }));
    setPage(1);
  };

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        actions={
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={Boolean(problem) || exporter.isPending}
            onClick={() =>
              exporter.mutate({
                filters,
                // Money as this screen shows it, times in the browser's zone.
                format: {
                  currency: money.currency,
                  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
                },
                fileName: `tollgate-activity-${range.start}-${range.end}.csv`,
              })
            }
          >
            {t('export')}
          </button>
        }
      />
      <section className={cardClass} aria-label={t('filters_label')}>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            id="activity-start"
            label={t('from')}
            type="date"
            value={range.start}
            onChange={(e) => changeRange({ start: e.target.value })}
          />
          <TextField
            id="activity-end"
            label={t('to')}
            type="date"
            value={range.end}
            onChange={(e) => changeRange({ end: e.target.value })}
          />
          <TextField
            id="activity-model"
            label={t('model_filter')}
            value={modelName}
            onChange={(e) => {
              setModelName(e.target.value);
              setPage(1);
            }}
          />
          <TextField
            id="activity-token"
            label={t('token_filter')}
            value={tokenName}
            onChange={(e) => {
              setTokenName(e.target.value);
              setPage(1);
            }}
          />
        </div>
        {problem && (
          <div className="mt-3">
            <FormError message={t(`range_${problem}`)} />
          </div>
        )}
      </section>
      {!problem && (
        <section className={cardClass} aria-labelledby="activity-chart-title">
          <h2 id="activity-chart-title" className="text-sm font-medium text-slate-500">
            {t('chart_title')}
          </h2>
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
            {cache && <CacheTotalsLine totals={cache} />}
          </div>
        </section>
      )}
      {!problem && (
        <section className={cardClass} aria-labelledby="activity-records-title">
          <h2 id="activity-records-title" className="text-sm font-medium text-slate-500">
            {t('records_title')}
          </h2>
          <div className="mt-2">
            {logs.isPending && <Loading />}
            {logs.isError && <ErrorState error={logs.error} onRetry={() => void logs.refetch()} />}
            {logs.data && logs.data.items.length === 0 && <EmptyState text={t('empty')} />}
            {logs.data && logs.data.items.length > 0 && (
              <>
                <LogsTable items={logs.data.items} formatCost={money.formatCost} />
                <Pager page={page} pageSize={LOG_PAGE_SIZE} total={logs.data.total} onPage={setPage} />
              </>
            )}
          </div>
        </section>
      )}
    </>
  );
}
