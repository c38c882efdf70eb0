import '../../../i18n/namespaces/pricing';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSitePaths } from '../../../lib/use-site-paths';
import { PageHeader } from '../../../ui/page-header';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { cardClass, inputClass, tapTargetClass } from '../../../ui/styles';
import { CurrencyFallbackNote } from '../../dashboard/components/currency-fallback-note';
import { useMoney } from '../../currency/use-money';
import { filterModels, sortModels } from '../model-sort';
import { usePricing } from '../use-pricing';
import { CurrencyToggle } from './currency-toggle';
import { ModelFlags } from './model-flags';
import { intlLocale } from '../../../i18n/language';

/** SPEC §2 price list: every model's input and output price per 1M tokens, in RUB or USD. */
export function PriceList() {
  const { t, i18n } = useTranslation('pricing');
  const pricing = usePricing();
  const money = useMoney();
  const paths = useSitePaths();
  const [query, setQuery] = useState('');
  const models = useMemo(
    () => (pricing.data ? sortModels(filterModels(pricing.data, query), 'model') : []),
    [pricing.data, query],
  );
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  return (
    <>
      <PageHeader title={t('price_title')} subtitle={t('price_subtitle')} actions={<CurrencyToggle />} />
      <section className={cardClass}>
        <input
          type="search"
          aria-label={t('search_label')}
          placeholder={t('search_placeholder')}
          className={inputClass}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <CurrencyFallbackNote money={money} />
        <div className="mt-4">
          {pricing.isPending && <Loading />}
          {pricing.isError && <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} />}
          {pricing.data && models.length === 0 && <EmptyState text={t('no_models')} />}
          {models.length > 0 && (
            <div className="overflow-x-auto">
              {/* On a phone the context column gives way, so the prices fit the screen without a sideways scroll; the model's page shows its context. */}
              <table className="w-full text-left text-sm sm:min-w-[560px]">
                <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
                  <tr>
                    <th className="py-2 pr-3 font-medium">{t('col_model')}</th>
                    <th className="hidden py-2 pr-3 font-medium sm:table-cell">{t('col_context')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('col_input')}</th>
                    <th className="py-2 text-right font-medium">{t('col_output')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {models.map((model) => (
                    // On a phone the name runs along the row's top, above the prices: in its own column it had
                    // ~110 px and wrapped mid-name ('claude-haiku-' / '4-5').
                    <tr key={model.model} data-testid="price-row" className="relative">
                      <td className="pt-9 pr-3 pb-2.5 sm:pt-2.5">
                        <div className="flex flex-wrap items-center gap-x-2 max-sm:absolute max-sm:inset-x-0 max-sm:top-2">
                          <Link
                            to={paths.model(model.model)}
                            className={`${tapTargetClass} font-medium whitespace-nowrap text-indigo-700 hover:underline`}
                          >
                            {model.model}
                          </Link>
                          <ModelFlags model={model} />
                        </div>
                        <p className="text-xs text-slate-500">{model.provider}</p>
                      </td>
                      <td className="hidden py-2.5 pr-3 text-slate-600 tabular-nums sm:table-cell">
                        {t('tokens_count', {
                          count: model.context_window,
                          formatted: number.format(model.context_window),
                        })}
                      </td>
                      <td className="pt-9 pr-3 pb-2.5 text-right tabular-nums sm:pt-2.5">
                        {money.formatUsdPrice(model.input_price)}
                      </td>
                      <td className="pt-9 pb-2.5 text-right tabular-nums sm:pt-2.5">
                        {money.formatUsdPrice(model.output_price)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
        <p className="mt-4 text-xs text-slate-500">
          {t('price_note')}{' '}
          <Link to={paths.compare} className="text-indigo-600 hover:underline">
            {t('compare_link')}
          </Link>
        </p>
      </section>
    </>
  );
}
