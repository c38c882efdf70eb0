import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../i18n/language';
import { formatPrice } from '../currency/money';

/** A payment's decimal-string rubles formatted for the interface's language ('₽1,000.00', '1 000,00 ₽'). */
export function useRubles(): (amount: string) => string {
  const { i18n } = useTranslation();
  const locale = intlLocale(i18n.language);
  // Display only (as the user's payment history shows them): the amounts stay decimal strings elsewhere.
  return (amount: string) => formatPrice(Number(amount), 'RUB', locale);
}
