import type { RateLimits } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../ui/query-state';
import { useSystemStatus } from '../../system/use-system-status';
import { intlLocale } from '../../../i18n/language';

const COLUMNS: readonly (keyof RateLimits)[] = ['rpm', 'tpm', 'concurrency'];

/** Every group's /v1 rate limits as /api/status reports them now; 0 or absent is "no limit". */
export function GroupLimitsTable() {
  const { t, i18n } = useTranslation('docs');
  const status = useSystemStatus();
  if (status.isPending) return <Loading />;
  if (status.isError) return <p className="text-sm text-slate-500">{t('limits_table_unavailable')}</p>;
  const groups = Object.entries(status.data.group_rate_limits).sort(([a], [b]) => a.localeCompare(b));
  if (groups.length === 0) return <p className="leading-relaxed text-slate-700">{t('limits_table_empty')}</p>;
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const cell = (limit: number) => (limit > 0 ? number.format(limit) : t('limits_no_limit'));
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full text-left text-sm" aria-label={t('limits_groups_p')}>
          <thead className="bg-slate-50 text-slate-600">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                {t('limits_table_group')}
              </th>
              {COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-3 py-2 text-right font-medium">
                  {t(`limits_table_${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 text-slate-700">
            {groups.map(([group, limits]) => (
              <tr key={group} data-testid="group-limits-row">
                <th scope="row" className="px-3 py-2 font-mono font-normal">
                  {group}
                </th>
                {COLUMNS.map((column) => (
                  <td key={column} className="px-3 py-2 text-right tabular-nums">
                    {cell(limits[column])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-sm text-slate-500">{t('limits_table_other')}</p>
    </div>
  );
}
