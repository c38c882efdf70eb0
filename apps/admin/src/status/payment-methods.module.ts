import { Module } from '@nestjs/common';
import { BillingPaymentMethods } from './billing-payment-methods';

/** Billing's payment methods, asked once per process: /api/status and the settings screen share the answer. */
@Module({
  providers: [BillingPaymentMethods],
  exports: [BillingPaymentMethods],
})
export class PaymentMethodsModule {}
