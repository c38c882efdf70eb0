import { PAYMENT_PROVIDERS, type PaymentProviderName } from '@tollgate/contracts';

/**
 * The method the payer chose last in this tab. Paying by card or crypto leaves for the provider's
 * page and comes back to a fresh form, which would otherwise start on the card again.
 */
const PAYMENT_METHOD_KEY = 'tollgate.payment_method';

export function rememberPaymentMethod(
  provider: PaymentProviderName,
  storage: Storage = sessionStorage,
): void {
  storage.setItem(PAYMENT_METHOD_KEY, provider);
}

export function rememberedPaymentMethod(storage: Storage = sessionStorage): PaymentProviderName | null {
  const stored = storage.getItem(PAYMENT_METHOD_KEY);
  return PAYMENT_PROVIDERS.find((provider) => provider === stored) ?? null;
}
