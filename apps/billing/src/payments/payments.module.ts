import { Module } from '@nestjs/common';
import { AffiliateModule } from '../affiliate/affiliate.module';
import { ExchangeRateModule } from '../exchange-rate/exchange-rate.module';
import { LedgerModule } from '../ledger/ledger.module';
import { PromoModule } from '../promo/promo.module';
import { AdminPaymentsController } from './admin-payments.controller';
import { AdminPaymentsService } from './admin-payments.service';
import { PaymentMethodsController } from './payment-methods.controller';
import { PaymentProviders } from './payment-providers';
import { PaymentRefundsService } from './payment-refunds.service';
import { PaymentSettlementService } from './payment-settlement.service';
import { PaymentWebhooksService } from './payment-webhooks.service';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { CryptoProvider } from './providers/crypto.provider';
import { PAYMENT_PROVIDER_LIST } from './providers/payment-provider.port';
import { TestProvider } from './providers/test.provider';
import { YookassaProvider } from './providers/yookassa.provider';

@Module({
  imports: [LedgerModule, ExchangeRateModule, PromoModule, AffiliateModule],
  controllers: [PaymentsController, AdminPaymentsController, PaymentMethodsController],
  providers: [
    YookassaProvider,
    CryptoProvider,
    TestProvider,
    {
      provide: PAYMENT_PROVIDER_LIST,
      useFactory: (...providers: unknown[]) => providers,
      inject: [YookassaProvider, CryptoProvider, TestProvider],
    },
    PaymentProviders,
    PaymentsService,
    PaymentSettlementService,
    PaymentWebhooksService,
    PaymentRefundsService,
    AdminPaymentsService,
  ],
})
export class PaymentsModule {}
