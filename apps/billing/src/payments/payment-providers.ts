import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, type PaymentProviderName } from '@tollgate/contracts';
import { DEFAULT_LOCALE, type Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import { BillingSettings } from '../settings/billing-settings';
import { PAYMENT_PROVIDER_LIST, type PaymentProvider } from './providers/payment-provider.port';

/** The configured providers by name. */
@Injectable()
export class PaymentProviders {
  private readonly byName: ReadonlyMap<PaymentProviderName, PaymentProvider>;

  constructor(
    @Inject(PAYMENT_PROVIDER_LIST) providers: readonly PaymentProvider[],
    private readonly settings: BillingSettings,
  ) {
    this.byName = new Map(providers.map((provider) => [provider.name, provider]));
  }

  /** The provider by name, configured or not (a refund of an old payment needs it). */
  named(name: PaymentProviderName): PaymentProvider | undefined {
    return this.byName.get(name);
  }

  /**
   * The provider, when it is configured here and an operator has not switched it off (the test
   * provider follows TestPaymentEnabled, else its configuration); a 400 in `locale` otherwise (a
   * provider's webhook has no person to answer: the default language).
   */
  enabled(name: PaymentProviderName, locale: Locale = DEFAULT_LOCALE): PaymentProvider {
    const provider = this.byName.get(name);
    const usable =
      name === 'test'
        ? this.settings.paymentsAllowed('test')
        : provider?.enabled() && this.settings.paymentsAllowed(name);
    if (!provider || !usable) {
      throw localizedException(ErrorCode.ValidationFailed, 'payment_method_unavailable', locale);
    }
    return provider;
  }
}
