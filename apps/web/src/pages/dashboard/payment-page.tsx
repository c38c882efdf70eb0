import '../../i18n/namespaces/payment';
import { useTranslation } from 'react-i18next';
import { BalanceCard } from '../../features/dashboard/components/balance-card';
import { PaymentHistory } from '../../features/payment/components/payment-history';
import { TopUpForm } from '../../features/payment/components/top-up-form';
import { PageHeader } from '../../ui/page-header';

export function PaymentPage() {
  const { t } = useTranslation('payment');
  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <div className="grid gap-4 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <TopUpForm />
        </div>
        <BalanceCard showTopUp={false} />
      </div>
      <PaymentHistory />
    </>
  );
}
