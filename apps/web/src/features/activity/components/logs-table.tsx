import { useTranslation } from 'react-i18next';
import type { LogItem } from '../activity-api';
import { tableDateTime } from '../../../i18n/date-time';
import { intlLocale } from '../../../i18n/language';

interface LogsTableProps {
  items: readonly LogItem[];
  /** A line's cost from its quota units. */
  formatCost: (quota: number) => string;
}

/**
 * A request's prompt-cache writes under its input tokens, when it wrote any: they are part of the input
 * but cost more (a 5-minute write 1.25×, an hour's 2× the input price), so the cost can be checked.
 */
function CacheWrites({ item, format }: { item: LogItem; format: (tokens: number) => string }) {
  const { t } = useTranslation('activity');
  const writes = [
    { key: 'cache_write_5m', tokens: item.cache_write_5m_tokens },
    { key: 'cache_write_1h', tokens: item.cache_write_1h_tokens },
  ] as const;
  if (writes.every((write) => write.tokens === 0)) return null;
  return (
    <span className="block text-xs whitespace-nowrap text-slate-500" data-testid="log-cache-writes">
      {writes
        .filter((write) => write.tokens > 0)
        .map((write) => t(write.key, { tokens: format(write.tokens) }))
        .join(' · ')}
    </span>
  );
}

/**
 * SPEC §3 activity record: date and time, model, key name, input and output tokens (with the prompt
 * cache's writes), price.
 */
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
              <td className="py-2 pr-3 text-right tabular-nums">
                {number.format(item.prompt_tokens)}
                <CacheWrites item={item} format={number.format} />
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{number.format(item.completion_tokens)}</td>
              <td className="py-2 text-right tabular-nums">{formatCost(item.quota)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
