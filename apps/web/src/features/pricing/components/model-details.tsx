import '../../../i18n/namespaces/pricing';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useSitePaths } from '../../../lib/use-site-paths';
import { CodeBlock } from '../../../ui/code-block';
import { PageHeader } from '../../../ui/page-header';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { cardClass, tapTargetClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import { useApiBaseUrl } from '../../system/use-api-base-url';
import { usePricing } from '../use-pricing';
import { CurrencyToggle } from './currency-toggle';
import { ModelFlags } from './model-flags';
import { Rating } from './rating';
import { intlLocale } from '../../../i18n/language';

/** SPEC §2 model page: one model's prices, context, ratings, flags and a request to try it. */
export function ModelDetails() {
  const { t, i18n } = useTranslation('pricing');
  const { modelName = '' } = useParams();
  const pricing = usePricing();
  const money = useMoney();
  const paths = useSitePaths();
  const baseUrl = useApiBaseUrl();
  const model = pricing.data?.find((m) => m.model === modelName);
  const number = new Intl.NumberFormat(intlLocale(i18n.language));
  const sample = `from openai import OpenAI

client = OpenAI(base_url="${baseUrl}", api_key="sk-...")
reply = client.chat.completions.create(
    model="${modelName}",
    messages=[{"role": "user", "content": "Hello!"}],
)
print(reply.choices[0].message.content)`;
  return (
    <>
      <PageHeader title={modelName} subtitle={model?.provider} actions={<CurrencyToggle />} />
      {pricing.isPending && <Loading />}
      {pricing.isError && <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} />}
      {pricing.data && !model && <EmptyState text={t('model_not_found')} />}
      {model && (
        <>
          <section className={`${cardClass} grid gap-4 sm:grid-cols-2 lg:grid-cols-4`}>
            <div>
              <p className="text-xs text-slate-500">{t('col_input')}</p>
              <p className="text-lg font-semibold">{money.formatUsdPrice(model.input_price)}</p>
            </div>
            <div>
              <p className="text-xs text-slate-500">{t('col_output')}</p>
              <p className="text-lg font-semibold">{money.formatUsdPrice(model.output_price)}</p>
            </div>
            <div>
              <p className="text-xs text-slate-500">{t('col_cached')}</p>
              <p className="text-lg font-semibold">{money.formatUsdPrice(model.cached_input_price)}</p>
            </div>
            {model.cache_write_price != null && (
              <div>
                <p className="text-xs text-slate-500">{t('col_cache_write')}</p>
                <p className="text-lg font-semibold">{money.formatUsdPrice(model.cache_write_price)}</p>
                {model.cache_write_1h_price != null && (
                  <p className="text-xs text-slate-500">
                    {t('cache_write_1h', { price: money.formatUsdPrice(model.cache_write_1h_price) })}
                  </p>
                )}
              </div>
            )}
            <div>
              <p className="text-xs text-slate-500">{t('col_context')}</p>
              <p className="text-lg font-semibold">
                {t('tokens_count', {
                  count: model.context_window,
                  formatted: number.format(model.context_window),
                })}
              </p>
            </div>
            <div>
              <p className="text-xs text-slate-500">{t('col_intelligence')}</p>
              <Rating value={model.intelligence} />
            </div>
            <div>
              <p className="text-xs text-slate-500">{t('col_speed')}</p>
              <Rating value={model.speed} />
            </div>
            <div className="flex flex-wrap items-center gap-2 sm:col-span-2">
              <ModelFlags model={model} />
            </div>
          </section>
          <section className={cardClass}>
            <h2 className="text-lg font-semibold text-slate-900">{t('try_title')}</h2>
            <div className="mt-3">
              <CodeBlock code={sample} language="python" />
            </div>
          </section>
        </>
      )}
      <p className="text-sm">
        <Link to={paths.price} className={`${tapTargetClass} text-indigo-600 hover:underline`}>
          {t('back_to_prices')}
        </Link>
      </p>
    </>
  );
}
