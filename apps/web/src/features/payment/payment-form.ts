import { intlLocale } from '../../i18n/language';
import { rubleAmountSchema, type PaymentProviderName } from '@tollgate/contracts';
import { isValidEmail } from '../auth/validation';

export interface PaymentFormState {
  amount: string;
  provider: PaymentProviderName;
  promoCode: string;
  email: string;
  agreed: boolean;
}

export type PaymentProblem = 'amount_invalid' | 'email_required' | 'email_invalid' | 'agreement_required';

/** SPEC §5: an amount, a receipt e-mail and agreement to the rules and offer; the amount as canonical text. */
export function checkPaymentForm(form: PaymentFormState): { amount: string } | { problem: PaymentProblem } {
  const amount = rubleAmountSchema.safeParse(form.amount.trim().replace(',', '.'));
  if (!amount.success) return { problem: 'amount_invalid' };
  if (!form.email.trim()) return { problem: 'email_required' };
  if (!isValidEmail(form.email.trim())) return { problem: 'email_invalid' };
  if (!form.agreed) return { problem: 'agreement_required' };
  return { amount: amount.data };
}

/** A preset amount grouped as the interface's language groups thousands (1 000 in Russian, 1,000 in English). */
export function presetAmount(amount: string, language: string): string {
  return Number(amount).toLocaleString(intlLocale(language));
}
