import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  ADMIN_PAYMENT_PAGE_DEFAULT_SIZE,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  type AdminPaymentView,
  type PaymentProviderName,
  type PaymentStatus,
} from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { queryKeys } from '../../../api/query-keys';
import { adminUserPath } from '../../../lib/routes';
import { Dialog } from '../../../ui/dialog';
import { buttonClass, cardClass } from '../../../ui/styles';
import { InputField, SelectField } from '../../../ui/field';
import { useMoney } from '../../currency/use-money';
import { fetchPayments, refundPayment, type PaymentFilters } from '../admin-payments-api';
import { useAdminMutation } from '../use-admin-mutation';
import { useRubles } from '../use-rubles';
import { PagedTable } from '../../../ui/paged-table';
import { tableDateTime } from '../../../i18n/date-time';

/** Rubles with kopecks, as a person types them. */
const RUBLES = /^\d{1,10}([.,]\d{1,2})?$/;

interface Draft {
  status: string;
  provider: string;
  user_id: string;
}

const toFilters = (draft: Draft): PaymentFilters => ({
  status: (draft.status || undefined) as PaymentStatus | undefined,
  provider: (draft.provider || undefined) as PaymentProviderName | undefined,
  user_id: /^\d+$/.test(draft.user_id.trim()) ? Number(draft.user_id.trim()) : undefined,
});

/** Every user's payments with status, provider and user filters; details and refunds (whole or partial). */
export function PaymentsScreen() {
  const { t, i18n } = useTranslation('admin');
  const money = useMoney();
  const rubles = useRubles();
  const [draft, setDraft] = useState<Draft>({ status: '', provider: '', user_id: '' });
  const [applied, setApplied] = useState<PaymentFilters>({});
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AdminPaymentView | null>(null);
  const payments = useQuery({
    queryKey: queryKeys.adminPaymentPage(applied, page),
    queryFn: () => fetchPayments(applied, page),
    placeholderData: keepPreviousData,
  });
  const time = tableDateTime(i18n.language);
  return (
    <section className={cardClass} aria-labelledby="admin-payments-title">
      <h2 id="admin-payments-title" className="text-lg font-semibold">
        {t('payments_title')}
      </h2>
      <form
        className="mt-3 grid gap-3 md:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setApplied(toFilters(draft));
        }}
      >
        <SelectField
          label={t('status')}
          value={draft.status}
          onChange={(e) => setDraft({ ...draft, status: e.target.value })}
        >
          <option value="">{t('users_any_status')}</option>
          {PAYMENT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`payment_status_${status}`)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t('payments_provider')}
          value={draft.provider}
          onChange={(e) => setDraft({ ...draft, provider: e.target.value })}
        >
          <option value="">{t('audit_any')}</option>
          {PAYMENT_PROVIDERS.map((provider) => (
            <option key={provider} value={provider}>
              {t(`payment_provider_${provider}`)}
            </option>
          ))}
        </SelectField>
        <InputField
          label={t('payments_user_id')}
          inputMode="numeric"
          value={draft.user_id}
          onChange={(e) => setDraft({ ...draft, user_id: e.target.value })}
        />
        <div className="flex items-end">
          <button type="submit" className={buttonClass.primary}>
            {t('search')}
          </button>
        </div>
      </form>
      <PagedTable
        query={payments}
        headers={[
          'ID',
          t('logs_time'),
          t('user'),
          t('payments_provider'),
          t('payments_amount'),
          t('payments_credited'),
          t('status'),
          t('payments_refunded'),
          '',
        ]}
        rowKey={(payment) => payment.id}
        row={(payment) => (
          <tr className="border-t border-slate-100" data-testid="admin-payment-row">
            <td className="px-2 py-2 text-slate-500">{payment.id}</td>
            <td className="px-2 py-2 whitespace-nowrap">
              {time.format(new Date(payment.created_at * 1000))}
            </td>
            <td className="px-2 py-2">
              <Link to={adminUserPath(payment.user_id)} className="text-indigo-600 hover:underline">
                {payment.username ?? `#${payment.user_id}`}
              </Link>
            </td>
            <td className="px-2 py-2">{t(`payment_provider_${payment.provider}`)}</td>
            <td className="px-2 py-2 whitespace-nowrap">{rubles(payment.amount)}</td>
            <td className="px-2 py-2 whitespace-nowrap">
              {money.formatQuota(payment.quota + payment.bonus_quota)}
            </td>
            <td className="px-2 py-2">{t(`payment_status_${payment.status}`)}</td>
            <td className="px-2 py-2 whitespace-nowrap">
              {payment.refunded_amount === '0' ? '—' : rubles(payment.refunded_amount)}
            </td>
            <td className="px-2 py-2">
              <button type="button" className={buttonClass.ghost} onClick={() => setOpen(payment)}>
                {t('audit_details')}
              </button>
            </td>
          </tr>
        )}
        empty={t('payments_empty')}
        page={page}
        pageSize={ADMIN_PAYMENT_PAGE_DEFAULT_SIZE}
        onPage={setPage}
      />
      {open ? (
        // A new refund state opens afresh: what is left to refund, and a new idempotency key.
        <PaymentDialog
          key={`${open.id}:${open.refunded_amount}`}
          payment={open}
          onClose={() => setOpen(null)}
          onChanged={setOpen}
        />
      ) : null}
    </section>
  );
}

interface DialogProps {
  payment: AdminPaymentView;
  onClose: () => void;
  onChanged: (payment: AdminPaymentView) => void;
}

/** One payment: its facts, its refunds, and a refund of all or part of what is left. */
function PaymentDialog({ payment, onClose, onChanged }: DialogProps) {
  const { t, i18n } = useTranslation('admin');
  const money = useMoney();
  const rubles = useRubles();
  const [amount, setAmount] = useState(payment.refundable_amount);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  // One key per dialog: a second click or a retry after a lost answer refunds once.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const refund = useAdminMutation({
    mutationFn: () =>
      refundPayment(payment.id, {
        amount: amount.trim().replace(',', '.'),
        reason: reason.trim(),
        idempotency_key: idempotencyKey,
      }),
    refresh: [queryKeys.adminPayments],
    success: () => t('payments_refunded_toast'),
    onSuccess: (changed) => {
      setConfirming(false);
      onChanged(changed);
    },
  });
  const time = tableDateTime(i18n.language);
  const canRefund = payment.refundable_amount !== '0';
  const amountValid = RUBLES.test(amount.trim());
  const facts: [string, string][] = [
    [t('user'), payment.username ?? `#${payment.user_id}`],
    [t('payments_provider'), t(`payment_provider_${payment.provider}`)],
    [t('payments_provider_id'), payment.provider_payment_id ?? '—'],
    [t('status'), t(`payment_status_${payment.status}`)],
    [t('payments_amount'), rubles(payment.amount)],
    [t('payments_rate'), payment.usd_rub],
    [t('payments_credited'), money.formatQuota(payment.quota + payment.bonus_quota)],
    [t('payments_promo'), payment.promo_code ?? '—'],
    [t('payments_refunded'), rubles(payment.refunded_amount)],
    [t('payments_refundable'), rubles(payment.refundable_amount)],
  ];
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title={t('payment_title', { id: payment.id })}>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="font-medium break-all">{value}</dd>
          </div>
        ))}
      </dl>
      {payment.refunds.length > 0 ? (
        <ul className="mt-4 flex flex-col gap-1 text-sm" aria-label={t('payments_refunds')}>
          {payment.refunds.map((item) => (
            <li key={item.id} data-testid="payment-refund">
              {time.format(new Date(item.created_at * 1000))} · {rubles(item.amount)} ·{' '}
              {item.source === 'operator' ? `#${item.actor_id ?? ''}` : t('payments_by_provider')} ·{' '}
              {item.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {canRefund ? (
        <form
          className="mt-4 flex flex-col gap-3 border-t border-slate-100 pt-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (!amountValid || reason.trim() === '') return;
            if (!confirming) setConfirming(true);
            else refund.mutate(undefined);
          }}
        >
          <InputField
            label={t('payments_refund_amount')}
            inputMode="decimal"
            value={amount}
            aria-invalid={!amountValid}
            onChange={(e) => {
              setAmount(e.target.value);
              setConfirming(false);
            }}
          />
          <InputField
            label={t('payments_refund_reason')}
            value={reason}
            maxLength={500}
            required
            onChange={(e) => {
              setReason(e.target.value);
              setConfirming(false);
            }}
          />
          {confirming ? (
            <p role="alert" className="text-sm text-amber-700">
              {t('payments_refund_confirm', { amount: rubles(amount.trim().replace(',', '.')) })}
            </p>
          ) : null}
          <div className="flex justify-end">
            <button
              type="submit"
              className={buttonClass.primary}
              disabled={refund.isPending || !amountValid || reason.trim() === ''}
            >
              {confirming ? t('payments_refund_confirm_button') : t('payments_refund')}
            </button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
