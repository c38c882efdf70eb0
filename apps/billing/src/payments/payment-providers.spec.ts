import { AppException } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { BillingSettings } from '../settings/billing-settings';
import { PaymentProviders } from './payment-providers';

/** No operator setting read (no bus), no provider configured, test payments off. */
const providers = () =>
  new PaymentProviders(
    [],
    new BillingSettings(
      undefined as never,
      undefined as never,
      {
        TOLLGATE_PAYMENT_TEST: false,
      } as BillingConfig,
    ),
  );

const refusal = (run: () => unknown): { status: number; message: string } => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    return { status: (error as AppException).getStatus(), message: (error as AppException).message };
  }
  throw new Error('the provider was accepted');
};

describe('PaymentProviders.enabled', () => {
  it('refuses a provider that is not configured in the caller language', () => {
    expect(refusal(() => providers().enabled('yookassa', 'en'))).toEqual({
      status: 400,
      message: 'This payment method is currently unavailable',
    });
    expect(refusal(() => providers().enabled('test', 'ru'))).toEqual({
      status: 400,
      message: 'Этот способ оплаты сейчас недоступен',
    });
  });

  it('answers a provider webhook, which has no caller language, in Russian', () => {
    expect(refusal(() => providers().enabled('crypto')).message).toBe('Этот способ оплаты сейчас недоступен');
  });
});
