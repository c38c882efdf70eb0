import '../../../i18n/namespaces/pricing';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSitePaths } from '../../../lib/use-site-paths';
import { PageHeader } from '../../../ui/page-header';
import { ErrorState, Loading } from '../../../ui/query-state';
import { cardClass, inputClass, labelClass, tapTargetClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import { MODEL_SORTS, sortModels, type ModelSort } from '../model-sort';
import { usePricing } from '../use-pricing';
import { CurrencyToggle } from './currency-toggle';
import { ModelFlags } from './model-flags';
import { Rating } from './rating';
import { intlLocale } from '../../../i18n/language';

/** SPEC §2 comparison: context, prices, intelligence, speed, SOTA and deprecated flags side by side. */
export function ModelCompare() {
  const { t, i18n } = useTranslation('pricing');
  const pricing = usePricing();
  const money = useMoney();
  const paths = useSitePaths();
  const [sort, setSort] = useState<ModelSort>('intelligence');
  const models = useMemo(() => (pricing.data ? sortModels(pricing.data, sort) : []), [pricing.data, sort]);
  const number = new Intl.NumberFormat(intlLocale(i18n.language), { notation: 'compact' });
  return (
    <>
      <PageHeader title={t('compare_title')} subtitle={t('compare_subtitle')} actions={<CurrencyToggle />} />
      <section className={cardClass}>
        <div className="flex max-w-xs flex-col gap-1">
          <label htmlFor="compare-sort" className={labelClass}>
            {t('sort_by')}
          </label>
          <select
            id="compare-sort"
            className={inputClass}
            value={sort}
            onChange={(e) => setSort(e.target.value as ModelSort)}
          >
            {MODEL_SORTS.map((key) => (
              <option key={key} value={key}>
                {t(`sort_${key}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="mt-4">
          {pricing.isPending && <Loading />}
          {pricing.isError && <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} />}
          {models.length > 0 && (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[760px] text-left text-sm">
                <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
                  <tr>
                    <th className="py-2 pr-3 font-medium">{t('col_model')}</th>
                    <th className="py-2 pr-3 font-medium">{t('col_context')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('col_input')}</th>
                    <th className="py-2 pr-3 text-right font-medium">{t('col_output')}</th>
                    <th className="py-2 pr-3 font-medium">{t('col_intelligence')}</th>
                    <th className="py-2 pr-3 font-medium">{t('col_speed')}</th>
                    <th className="py-2 font-medium">{t('col_flags')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {models.map((model) => (
                    <tr key={model.model} className={model.deprecated ? 'text-slate-400' : ''}>
                      <td className="py-2.5 pr-3">
                        <Link
                          to={paths.model(model.model)}
                          className={`${tapTargetClass} font-medium text-indigo-700 hover:underline`}
                        >
                          {model.model}
                        </Link>
                        <p className="text-xs text-slate-500">{model.provider}</p>
                      </td>
                      <td className="py-2.5 pr-3 tabular-nums">{number.format(model.context_window)}</td>
                      <td className="py-2.5 pr-3 text-right tabular-nums">
                        {money.formatUsdPrice(model.input_price)}
                      </td>
                      <td className="py-2.5 pr-3 text-right tabular-nums">
                        {money.formatUsdPrice(model.output_price)}
                      </td>
                      <td className="py-2.5 pr-3">
                        <Rating value={model.intelligence} />
                      </td>
                      <td className="py-2.5 pr-3">
                        <Rating value={model.speed} />
                      </td>
                      <td className="py-2.5">
                        <div className="flex flex-wrap gap-1">
                          <ModelFlags model={model} />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </section>
    </>
  );
}
