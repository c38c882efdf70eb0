import type { PaymentStatus } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../../i18n/language';
import { buttonClass } from '../../../ui/styles';
import { formatPrice } from '../../currency/money';
import { useAwaitedPayment } from '../use-payment-queries';

const NOTICE_CLASS: Record<PaymentStatus, string> = {
  pending: 'border-amber-200 bg-amber-50 text-amber-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  test_success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  failed: 'border-red-200 bg-red-50 text-red-800',
  canceled: 'border-slate-200 bg-slate-50 text-slate-700',
  refunded: 'border-sky-200 bg-sky-50 text-sky-800',
};

/**
 * What became of the payment the payer just came back from the provider's page with: still being
 * confirmed, paid (the balance follows), or canceled or failed with nothing charged.
 */
export function PaymentReturnNotice() {
  const { t, i18n } = useTranslation('payment');
  const { payment, dismiss } = useAwaitedPayment();
  if (!payment) return null;
  const amount = formatPrice(Number(payment.amount), payment.currency, intlLocale(i18n.language));
  return (
    <div
      role="status"
      data-testid="payment-return"
      className={`flex flex-wrap items-center gap-3 rounded-lg border px-4 py-3 text-sm ${NOTICE_CLASS[payment.status]}`}
    >
      <p className="min-w-0 grow basis-64">{t(`return_${payment.status}`, { id: payment.id, amount })}</p>
      {payment.status !== 'pending' && (
        <button type="button" className={`${buttonClass.ghost} ml-auto`} onClick={dismiss}>
          {t('return_dismiss')}
        </button>
      )}
    </div>
  );
}
