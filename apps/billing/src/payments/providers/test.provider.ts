import { Injectable } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import type { BillingConfig } from '../../config';
import {
  RejectedNotificationError,
  type Checkout,
  type CheckoutRequest,
  type PaymentProvider,
} from './payment-provider.port';

/** For pilots, only with TOLLGATE_PAYMENT_TEST=true: the payment succeeds at once, nobody pays. */
@Injectable()
export class TestProvider implements PaymentProvider {
  readonly name = 'test' as const;

  constructor(@InjectServiceConfig() private readonly config: BillingConfig) {}

  enabled(): boolean {
    return this.config.TOLLGATE_PAYMENT_TEST;
  }

  async checkout(request: CheckoutRequest): Promise<Checkout> {
    return { providerPaymentId: `test-${request.idempotenceKey}`, payUrl: null, outcome: 'succeeded' };
  }

  /** Test payments have no webhook: anything claiming to be one is refused. */
  async verifyNotification(): Promise<never> {
    throw new RejectedNotificationError('test payments take no notifications');
  }
}
