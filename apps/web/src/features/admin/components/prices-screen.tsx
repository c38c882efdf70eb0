import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModelPricing } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { readAgain } from '../../../api/query-client';
import { queryKeys } from '../../../api/query-keys';
import { Dialog } from '../../../ui/dialog';
import { ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass, inputClass } from '../../../ui/styles';
import { CheckboxField, InputField, SelectField } from '../../../ui/field';
import { useExchangeRate } from '../../currency/use-exchange-rate';
import { formatPrice, usdPriceIn } from '../../currency/money';
import { notify } from '../../shell/notify';
import { fetchPricingAdmin, saveGroupRatio, saveModelPrice, type ModelPriceDraft } from '../admin-api';
import { intlLocale } from '../../../i18n/language';

const DECIMAL = /^\d{1,7}(\.\d{1,6})?$/;

/** A write price as the editor shows it: empty where the model has none. */
const optionalPrice = (price: number | null | undefined): string =>
  price === null || price === undefined ? '' : String(price);
const RATIO = /^\d{1,4}(\.\d{1,6})?$/;

/** One USD price per 1M tokens as the public price list shows it, in rubles and in dollars. */
function usePricePreview() {
  const { i18n } = useTranslation();
  const rate = useExchangeRate();
  const locale = intlLocale(i18n.language);
  return (usd: number) => {
    const rub = usdPriceIn(usd, 'RUB', rate.usdRubScaled);
    return `${rub === null ? '—' : formatPrice(rub, 'RUB', locale)} · ${formatPrice(usd, 'USD', locale)}`;
  };
}

/** Model prices (USD per 1M tokens, previewed in RUB and USD as the public list shows them) and group ratios. */
export function PricesScreen() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const preview = usePricePreview();
  const pricing = useQuery({ queryKey: queryKeys.adminPricing, queryFn: fetchPricingAdmin });
  const [editing, setEditing] = useState<ModelPricing | 'new' | null>(null);
  const refresh = () =>
    Promise.all([readAgain(queryClient, queryKeys.adminPricing), readAgain(queryClient, queryKeys.pricing)]);
  const fail = (error: unknown) =>
    notify.destructive(t('action_failed'), { description: errorMessage(error, t) });
  const saveModel = useMutation({
    mutationFn: ({ model, draft }: { model: string; draft: ModelPriceDraft }) => saveModelPrice(model, draft),
    onSuccess: (_data, { model }) => {
      notify.success(t('price_saved', { model }));
      setEditing(null);
    },
    onError: fail,
    onSettled: refresh,
  });
  const saveRatio = useMutation({
    mutationFn: ({ group, ratio }: { group: string; ratio: string }) => saveGroupRatio(group, ratio),
    onSuccess: (_data, { group }) => notify.success(t('ratio_saved', { group })),
    onError: fail,
    onSettled: refresh,
  });
  if (pricing.isPending) return <Loading />;
  if (pricing.isError) return <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} />;
  const { models, groupRatios } = pricing.data;
  return (
    <div className="flex flex-col gap-6">
      <section className={cardClass} aria-labelledby="admin-prices-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="admin-prices-title" className="text-lg font-semibold">
            {t('prices_title')}
          </h2>
          <button type="button" className={buttonClass.primary} onClick={() => setEditing('new')}>
            {t('price_add')}
          </button>
        </div>
        <p className="mt-1 text-sm text-slate-500">{t('prices_hint')}</p>
        <div className="mt-4 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="px-2 py-2">{t('price_model')}</th>
                <th className="px-2 py-2">{t('price_provider')}</th>
                <th className="px-2 py-2">{t('price_input')}</th>
                <th className="px-2 py-2">{t('price_output')}</th>
                <th className="px-2 py-2">{t('price_context')}</th>
                <th className="px-2 py-2" />
              </tr>
            </thead>
            <tbody>
              {models.map((model) => (
                <tr key={model.model} className="border-t border-slate-100" data-testid="admin-price-row">
                  <td className="px-2 py-2 font-medium">
                    {model.model}
                    {model.deprecated ? (
                      <span className="ml-2 text-xs text-slate-400">{t('price_deprecated')}</span>
                    ) : null}
                  </td>
                  <td className="px-2 py-2">{model.provider}</td>
                  <td className="px-2 py-2 whitespace-nowrap">{preview(model.input_price)}</td>
                  <td className="px-2 py-2 whitespace-nowrap">{preview(model.output_price)}</td>
                  <td className="px-2 py-2">{model.context_window.toLocaleString()}</td>
                  <td className="px-2 py-2 text-right">
                    <button type="button" className={buttonClass.ghost} onClick={() => setEditing(model)}>
                      {t('edit')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <GroupRatios
        ratios={groupRatios}
        busy={saveRatio.isPending}
        onSave={(group, ratio) => saveRatio.mutate({ group, ratio })}
      />
      {editing !== null ? (
        <ModelPriceDialog
          model={editing === 'new' ? null : editing}
          busy={saveModel.isPending}
          onClose={() => setEditing(null)}
          onSave={(model, draft) => saveModel.mutate({ model, draft })}
        />
      ) : null}
    </div>
  );
}

function GroupRatios({
  ratios,
  busy,
  onSave,
}: {
  ratios: Record<string, number>;
  busy: boolean;
  onSave: (group: string, ratio: string) => void;
}) {
  const { t } = useTranslation('admin');
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [newGroup, setNewGroup] = useState('');
  const rows = Object.entries(ratios).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section className={cardClass} aria-labelledby="admin-ratios-title">
      <h2 id="admin-ratios-title" className="text-lg font-semibold">
        {t('ratios_title')}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{t('ratios_hint')}</p>
      <ul className="mt-3 flex flex-col gap-2">
        {[
          ...rows,
          ...(newGroup.trim() && !(newGroup.trim() in ratios) ? [[newGroup.trim(), 1] as const] : []),
        ].map(([group, ratio]) => {
          const value = drafts[group] ?? String(ratio);
          const valid = RATIO.test(value.trim());
          return (
            <li key={group} className="flex items-center gap-2">
              <code className="w-40 text-sm">{group}</code>
              <input
                className={`${inputClass} w-32`}
                aria-label={t('ratio_of', { group })}
                value={value}
                aria-invalid={!valid}
                onChange={(event) => setDrafts({ ...drafts, [group]: event.target.value })}
              />
              <button
                type="button"
                className={buttonClass.secondary}
                disabled={busy || !valid || value.trim() === String(ratios[group])}
                onClick={() => onSave(group, value.trim())}
              >
                {t('save')}
              </button>
            </li>
          );
        })}
      </ul>
      <input
        className={`${inputClass} mt-3 w-60`}
        aria-label={t('ratio_new_group')}
        placeholder={t('ratio_new_group')}
        value={newGroup}
        onChange={(event) => setNewGroup(event.target.value.replace(/[^a-zA-Z0-9_-]/g, ''))}
      />
    </section>
  );
}

function ModelPriceDialog({
  model,
  busy,
  onClose,
  onSave,
}: {
  model: ModelPricing | null;
  busy: boolean;
  onClose: () => void;
  onSave: (model: string, draft: ModelPriceDraft) => void;
}) {
  const { t } = useTranslation('admin');
  const preview = usePricePreview();
  const [name, setName] = useState(model?.model ?? '');
  const [draft, setDraft] = useState({
    provider: model?.provider ?? 'openai',
    input_price: String(model?.input_price ?? ''),
    output_price: String(model?.output_price ?? ''),
    cached_input_price: String(model?.cached_input_price ?? '0'),
    cache_write_price: optionalPrice(model?.cache_write_price),
    cache_write_1h_price: optionalPrice(model?.cache_write_1h_price),
    context_window: String(model?.context_window ?? 128000),
    intelligence: model?.intelligence ?? 3,
    speed: model?.speed ?? 3,
    sota: model?.sota ?? false,
    deprecated: model?.deprecated ?? false,
  });
  const prices = ['input_price', 'output_price', 'cached_input_price'] as const;
  // Empty: writes cost the input price (an hour's writes, the 5-minute write price).
  const writePrices = ['cache_write_price', 'cache_write_1h_price'] as const;
  const validWritePrice = (value: string) => value.trim() === '' || DECIMAL.test(value.trim());
  const valid =
    name.trim() !== '' &&
    draft.provider.trim() !== '' &&
    prices.every((key) => DECIMAL.test(draft[key].trim())) &&
    writePrices.every((key) => validWritePrice(draft[key])) &&
    /^\d{1,9}$/.test(draft.context_window.trim());
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={model ? model.model : t('price_add')}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          onSave(name.trim(), {
            ...draft,
            provider: draft.provider.trim(),
            input_price: draft.input_price.trim(),
            output_price: draft.output_price.trim(),
            cached_input_price: draft.cached_input_price.trim(),
            cache_write_price: draft.cache_write_price.trim() || null,
            cache_write_1h_price: draft.cache_write_1h_price.trim() || null,
            context_window: Number(draft.context_window),
          });
        }}
      >
        {model === null ? (
          <InputField label={t('price_model')} value={name} onChange={(e) => setName(e.target.value)} />
        ) : null}
        <InputField
          label={t('price_provider')}
          value={draft.provider}
          onChange={(e) => setDraft({ ...draft, provider: e.target.value })}
        />
        {prices.map((key) => (
          <InputField
            key={key}
            label={t(`${key}_usd`)}
            hint={DECIMAL.test(draft[key].trim()) ? preview(Number(draft[key])) : undefined}
            inputMode="decimal"
            value={draft[key]}
            aria-invalid={!DECIMAL.test(draft[key].trim())}
            onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
          />
        ))}
        {writePrices.map((key) => (
          <InputField
            key={key}
            label={t(`${key}_usd`)}
            hint={
              draft[key].trim() === ''
                ? t(`${key}_unset`)
                : DECIMAL.test(draft[key].trim())
                  ? preview(Number(draft[key]))
                  : undefined
            }
            inputMode="decimal"
            value={draft[key]}
            aria-invalid={!validWritePrice(draft[key])}
            onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
          />
        ))}
        <InputField
          label={t('price_context')}
          inputMode="numeric"
          value={draft.context_window}
          onChange={(e) => setDraft({ ...draft, context_window: e.target.value })}
        />
        <div className="grid grid-cols-2 gap-3">
          {(['intelligence', 'speed'] as const).map((key) => (
            <SelectField
              key={key}
              label={t(`price_${key}`)}
              value={draft[key]}
              onChange={(e) => setDraft({ ...draft, [key]: Number(e.target.value) })}
            >
              {[1, 2, 3, 4, 5].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </SelectField>
          ))}
        </div>
        <div className="flex gap-4 text-sm">
          <CheckboxField
            checked={draft.sota}
            onChange={(e) => setDraft({ ...draft, sota: e.target.checked })}
          >
            {t('price_sota')}
          </CheckboxField>
          <CheckboxField
            checked={draft.deprecated}
            onChange={(e) => setDraft({ ...draft, deprecated: e.target.checked })}
          >
            {t('price_deprecated')}
          </CheckboxField>
        </div>
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={busy || !valid}>
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
