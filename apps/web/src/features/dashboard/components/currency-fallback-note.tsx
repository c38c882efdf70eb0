import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import type { Money } from '../../currency/use-money';

/** Says that rubles were chosen but amounts are in dollars, because the rate could not be read. */
export function CurrencyFallbackNote({ money }: { money: Money }) {
  const { t } = useTranslation('dashboard');
  if (!money.fellBack) return null;
  return (
    <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-800">
      {t('currency_fallback', {
        reason: money.rateError ? errorMessage(money.rateError, t) : t('currency_rate_loading'),
      })}
    </p>
  );
}
