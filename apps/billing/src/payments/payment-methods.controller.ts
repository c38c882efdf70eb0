import { Controller, Get } from '@nestjs/common';
import { ok, PAYMENT_METHODS_CALL, type Envelope, type PaymentMethodsResult } from '@tollgate/contracts';
import { ServiceOnly } from '@tollgate/platform';
import { PaymentProviders } from './payment-providers';

/** Service-to-service only: admin's /api/status offers the providers billing holds credentials for. */
@Controller()
export class PaymentMethodsController {
  constructor(private readonly providers: PaymentProviders) {}

  @ServiceOnly(PAYMENT_METHODS_CALL.audience)
  @Get(PAYMENT_METHODS_CALL.path)
  methods(): Envelope<PaymentMethodsResult> {
    return ok({
      yookassa: this.providers.named('yookassa')?.enabled() ?? false,
      crypto: this.providers.named('crypto')?.enabled() ?? false,
    });
  }
}
