import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../../i18n/language';
import type { CacheTotals } from '../daily-usage';

/**
 * The range's prompt-cache reads and writes under the spending chart, when it used the cache: the
 * writes cost more than input (a 5-minute write 1.25×, an hour's 2×), the reads less.
 */
export function CacheTotalsLine({ totals }: { totals: CacheTotals }) {
  const { t, i18n } = useTranslation('activity');
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const parts = [
    { key: 'cache_read', tokens: totals.read },
    { key: 'cache_write_5m', tokens: totals.written5m },
    { key: 'cache_write_1h', tokens: totals.written1h },
  ] as const;
  if (parts.every((part) => part.tokens === 0)) return null;
  return (
    <p className="mt-3 text-xs text-slate-500">
      <span className="block font-medium">{t('cache_totals_title')}</span>
      <span data-testid="cache-totals">
        {parts
          .filter((part) => part.tokens > 0)
          .map((part) => t(part.key, { tokens: number.format(part.tokens) }))
          .join(' · ')}
      </span>
    </p>
  );
}
