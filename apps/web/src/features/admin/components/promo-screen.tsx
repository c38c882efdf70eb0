import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Promo } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/query-keys';
import { intlLocale } from '../../../i18n/language';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { buttonClass, cardClass } from '../../../ui/styles';
import { InputField, SelectField } from '../../../ui/field';
import {
  ADMIN_PROMO_PAGE_SIZE,
  createPromo,
  deletePromo,
  fetchPromos,
  setPromoActive,
  type PromoDraft,
} from '../admin-api';
import { useAdminMutation } from '../use-admin-mutation';
import { PagedTable } from '../../../ui/paged-table';

const CODE = /^[\p{L}\p{N}_-]{1,64}$/u;
const AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;
const BATCH_MAX = 100;

/** `count` codes from one prefix: PREFIX-XXXXXX, letters and digits people read without mistakes. */
export function batchCodes(prefix: string, count: number, random: () => number = Math.random): string[] {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const codes = new Set<string>();
  while (codes.size < count) {
    let tail = '';
    for (let i = 0; i < 6; i++) tail += alphabet[Math.floor(random() * alphabet.length)];
    codes.add(`${prefix}-${tail}`);
  }
  return [...codes];
}

/** What a code's row says of it: disabled by an operator, used up, past its last day, or active. */
export function promoState(promo: Promo, nowMs: number): 'disabled' | 'exhausted' | 'expired' | 'active' {
  if (!promo.active) return 'disabled';
  if (promo.max_uses > 0 && promo.used_count >= promo.max_uses) return 'exhausted';
  if (promo.expires_at !== null && promo.expires_at * 1000 < nowMs) return 'expired';
  return 'active';
}

const PROMO_STATE_KEYS = {
  disabled: 'status_disabled',
  exhausted: 'promo_status_exhausted',
  expired: 'promo_status_expired',
  active: 'status_enabled',
} as const;

/** Promo codes: create one or a batch, the list with uses, disable or enable, delete. */
export function PromoScreen() {
  const { t, i18n } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<Promo | null>(null);
  const [disabling, setDisabling] = useState<Promo | null>(null);
  const promos = useQuery({
    queryKey: queryKeys.adminPromoPage(page),
    queryFn: () => fetchPromos(page),
    placeholderData: keepPreviousData,
  });
  const refresh = [queryKeys.adminPromos];
  const create = useAdminMutation({
    mutationFn: async (drafts: PromoDraft[]) => {
      for (const draft of drafts) await createPromo(draft);
      return drafts.length;
    },
    refresh,
    success: (count) => t('promo_created', { count }),
  });
  const toggle = useAdminMutation({
    mutationFn: (promo: Promo) => setPromoActive(promo.id, !promo.active),
    refresh,
    onSuccess: () => setDisabling(null),
  });
  const remove = useAdminMutation({
    mutationFn: (id: number) => deletePromo(id),
    refresh,
    success: () => t('promo_deleted'),
    onSuccess: () => setDeleting(null),
  });
  // The last valid day is a Moscow day (the form sends its 23:59:59 +03:00), in any browser's zone.
  const date = new Intl.DateTimeFormat(intlLocale(i18n.language), {
    dateStyle: 'medium',
    timeZone: 'Europe/Moscow',
  });
  return (
    <div className="flex flex-col gap-6">
      <PromoForm busy={create.isPending} onCreate={(drafts) => create.mutate(drafts)} />
      <section className={cardClass} aria-labelledby="admin-promos-title">
        <h2 id="admin-promos-title" className="text-lg font-semibold">
          {t('promos_title')}
        </h2>
        <PagedTable
          query={promos}
          headers={[t('promo_code'), t('promo_bonus'), t('promo_uses'), t('promo_expires'), t('status'), '']}
          rowKey={(promo) => promo.id}
          row={(promo) => (
            <tr className="border-t border-slate-100" data-testid="admin-promo-row">
              <td className="px-2 py-2 font-mono">{promo.code}</td>
              <td className="px-2 py-2">
                {promo.type === 'percent' ? `${promo.value} %` : `${promo.value} ₽`}
              </td>
              <td className="px-2 py-2">
                {promo.used_count} / {promo.max_uses === 0 ? '∞' : promo.max_uses}
              </td>
              <td className="px-2 py-2">
                {promo.expires_at ? date.format(new Date(promo.expires_at * 1000)) : '—'}
              </td>
              <td className="px-2 py-2">{t(PROMO_STATE_KEYS[promoState(promo, Date.now())])}</td>
              <td className="px-2 py-2">
                <div className="flex justify-end gap-1">
                  <button
                    type="button"
                    className={buttonClass.ghost}
                    disabled={toggle.isPending}
                    onClick={() => (promo.active ? setDisabling(promo) : toggle.mutate(promo))}
                  >
                    {promo.active ? t('disable') : t('enable')}
                  </button>
                  <button
                    type="button"
                    className={buttonClass.ghost}
                    aria-label={t('promo_delete', { code: promo.code })}
                    onClick={() => setDeleting(promo)}
                  >
                    {t('delete')}
                  </button>
                </div>
              </td>
            </tr>
          )}
          empty={t('promos_empty')}
          page={page}
          pageSize={ADMIN_PROMO_PAGE_SIZE}
          onPage={setPage}
        />
      </section>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('promo_delete_title')}
        description={t('promo_delete_description', { code: deleting?.code ?? '' })}
        confirmLabel={t('delete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
      <ConfirmDialog
        open={disabling !== null}
        onOpenChange={(open) => !open && setDisabling(null)}
        title={t('promo_disable_title')}
        description={t('promo_disable_description', { code: disabling?.code ?? '' })}
        confirmLabel={t('disable')}
        busy={toggle.isPending}
        onConfirm={() => disabling && toggle.mutate(disabling)}
      />
    </div>
  );
}

function PromoForm({ busy, onCreate }: { busy: boolean; onCreate: (drafts: PromoDraft[]) => void }) {
  const { t } = useTranslation('admin');
  const [code, setCode] = useState('');
  const [count, setCount] = useState('1');
  const [type, setType] = useState<Promo['type']>('percent');
  const [value, setValue] = useState('10');
  const [maxUses, setMaxUses] = useState('0');
  const [perUser, setPerUser] = useState('1');
  const [minAmount, setMinAmount] = useState('0');
  const [expires, setExpires] = useState('');
  const howMany = /^\d{1,3}$/.test(count) ? Number(count) : 0;
  const valid =
    CODE.test(code.trim()) &&
    howMany >= 1 &&
    howMany <= BATCH_MAX &&
    AMOUNT.test(value.trim()) &&
    Number(value) > 0 &&
    (type !== 'percent' || Number(value) <= 1000) &&
    /^\d{1,9}$/.test(maxUses) &&
    /^\d{1,9}$/.test(perUser) &&
    AMOUNT.test(minAmount.trim());
  return (
    <section className={cardClass} aria-labelledby="admin-promo-form-title">
      <h2 id="admin-promo-form-title" className="text-lg font-semibold">
        {t('promo_create')}
      </h2>
      <form
        className="mt-3 grid gap-3 md:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!valid) return;
          const base = {
            type,
            value: value.trim(),
            max_uses: Number(maxUses),
            per_user_limit: Number(perUser),
            min_amount: minAmount.trim(),
            expires_at: expires ? Math.floor(new Date(`${expires}T23:59:59+03:00`).getTime() / 1000) : null,
          };
          const codes = howMany === 1 ? [code.trim()] : batchCodes(code.trim(), howMany);
          onCreate(codes.map((c) => ({ ...base, code: c })));
          setCode('');
        }}
      >
        <InputField
          label={t('promo_code_or_prefix')}
          value={code}
          maxLength={57}
          onChange={(e) => setCode(e.target.value)}
        />
        <InputField
          label={t('promo_count')}
          inputMode="numeric"
          value={count}
          onChange={(e) => setCount(e.target.value)}
        />
        <SelectField
          label={t('promo_type')}
          value={type}
          onChange={(e) => setType(e.target.value as Promo['type'])}
        >
          <option value="percent">{t('promo_type_percent')}</option>
          <option value="fixed">{t('promo_type_fixed')}</option>
        </SelectField>
        <InputField
          label={t('promo_value')}
          inputMode="decimal"
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <InputField
          label={t('promo_max_uses')}
          inputMode="numeric"
          value={maxUses}
          onChange={(e) => setMaxUses(e.target.value)}
        />
        <InputField
          label={t('promo_per_user')}
          inputMode="numeric"
          value={perUser}
          onChange={(e) => setPerUser(e.target.value)}
        />
        <InputField
          label={t('promo_min_amount')}
          inputMode="decimal"
          value={minAmount}
          onChange={(e) => setMinAmount(e.target.value)}
        />
        <InputField
          label={t('promo_expires')}
          type="date"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
        />
        <div className="md:col-span-4 flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={busy || !valid}>
            {howMany > 1 ? t('promo_create_batch', { count: howMany }) : t('promo_create')}
          </button>
        </div>
      </form>
    </section>
  );
}
