import { useTranslation } from 'react-i18next';
import type { LogItem } from '../activity-api';
import { tableDateTime } from '../../../i18n/date-time';
import { intlLocale } from '../../../i18n/language';

interface LogsTableProps {
  items: readonly LogItem[];
  /** A line's cost from its quota units. */
  formatCost: (quota: number) => string;
}

/** SPEC §3 activity record: date and time, model, key name, input and output tokens, price. */
export function LogsTable({ items, formatCost }: LogsTableProps) {
  const { t, i18n } = useTranslation('activity');
  const dateTime = tableDateTime(i18n.language, { withSeconds: true });
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[640px] text-left text-sm">
        <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
          <tr>
            <th className="py-2 pr-3 font-medium">{t('col_time')}</th>
            <th className="py-2 pr-3 font-medium">{t('col_model')}</th>
            <th className="py-2 pr-3 font-medium">{t('col_token')}</th>
            <th className="py-2 pr-3 text-right font-medium">{t('col_input')}</th>
            <th className="py-2 pr-3 text-right font-medium">{t('col_output')}</th>
            <th className="py-2 text-right font-medium">{t('col_price')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((item) => (
            <tr key={item.id} data-testid="log-row">
              <td className="py-2 pr-3 whitespace-nowrap text-slate-600">
                {dateTime.format(new Date(item.created_at * 1000))}
              </td>
              <td className="py-2 pr-3 font-medium text-slate-800">
                {item.model_name || t(`type_${item.type}`)}
              </td>
              <td className="py-2 pr-3 text-slate-600">{item.token_name || '—'}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{number.format(item.prompt_tokens)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{number.format(item.completion_tokens)}</td>
              <td className="py-2 text-right tabular-nums">{formatCost(item.quota)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
