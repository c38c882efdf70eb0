import type { PaymentLogItem, PaymentStatus } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { Pager } from '../../../ui/pager';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass } from '../../../ui/styles';
import { formatPrice } from '../../currency/money';
import { notify } from '../../shell/notify';
import { usePaymentLogs } from '../use-payment-queries';
import { PAYMENT_HISTORY_PAGE_SIZE } from '../payment-api';
import { tableDateTime } from '../../../i18n/date-time';
import { intlLocale } from '../../../i18n/language';

const STATUS_CLASS: Record<PaymentStatus, string> = {
  pending: 'bg-amber-50 text-amber-700',
  success: 'bg-emerald-50 text-emerald-700',
  test_success: 'bg-emerald-50 text-emerald-700',
  failed: 'bg-red-50 text-red-700',
  canceled: 'bg-slate-100 text-slate-600',
  refunded: 'bg-sky-50 text-sky-700',
};

/** SPEC §2 payment history: amount, status, date, provider and a copyable transaction id. */
export function PaymentHistory() {
  const { t, i18n } = useTranslation('payment');
  const [page, setPage] = useState(1);
  const logs = usePaymentLogs(page);
  const locale = intlLocale(i18n.language);
  const date = tableDateTime(i18n.language);
  const pages = logs.data ? Math.max(1, Math.ceil(logs.data.total / PAYMENT_HISTORY_PAGE_SIZE)) : 1;

  const copyId = async (item: PaymentLogItem) => {
    const result = await copyText(String(item.id));
    if (result === 'copied') notify.success(t('id_copied'));
    else notify.destructive(result === 'unsupported' ? t('copy_unsupported') : t('id_copy_failed'));
  };

  return (
    <section className={cardClass} aria-labelledby="payment-history-title">
      <h2 id="payment-history-title" className="text-lg font-semibold text-slate-900">
        {t('history_title')}
      </h2>
      <div className="mt-3">
        {logs.isPending && <Loading />}
        {logs.isError && <ErrorState error={logs.error} onRetry={() => void logs.refetch()} />}
        {logs.data && logs.data.items.length === 0 && <EmptyState text={t('history_empty')} />}
        {logs.data && logs.data.items.length > 0 && (
          <>
            <ul className="divide-y divide-slate-100">
              {logs.data.items.map((item) => (
                <li
                  key={item.id}
                  className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3 text-sm"
                  data-testid="payment-row"
                >
                  <span className="w-32 text-slate-500">{date.format(new Date(item.created_at * 1000))}</span>
                  <span className="w-28 font-semibold text-slate-900 tabular-nums">
                    {formatPrice(Number(item.amount), item.currency, locale)}
                  </span>
                  <span className="text-slate-600">{t(`provider_${item.provider}`)}</span>
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[item.status]}`}
                  >
                    {t(`status_${item.status}`)}
                  </span>
                  <button
                    type="button"
                    className={`${buttonClass.ghost} ml-auto font-mono text-xs`}
                    title={t('copy_id')}
                    onClick={() => void copyId(item)}
                  >
                    #{item.id}
                  </button>
                </li>
              ))}
            </ul>
            {pages > 1 && (
              <Pager
                page={page}
                pageSize={PAYMENT_HISTORY_PAGE_SIZE}
                total={logs.data.total}
                onPage={setPage}
              />
            )}
          </>
        )}
      </div>
    </section>
  );
}
