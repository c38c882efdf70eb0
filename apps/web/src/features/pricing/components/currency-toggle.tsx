import { useTranslation } from 'react-i18next';
import { CURRENCIES, useDefaultCurrency } from '../../currency/currency';

/** RUB ⇄ USD for prices; the choice is the user's default currency. */
export function CurrencyToggle() {
  const { t } = useTranslation('pricing');
  const [currency, setCurrency] = useDefaultCurrency();
  return (
    <div role="group" aria-label={t('currency_label')} className="inline-flex rounded-lg bg-slate-100 p-1">
      {CURRENCIES.map((code) => (
        <button
          key={code}
          type="button"
          aria-pressed={currency === code}
          onClick={() => setCurrency(code)}
          className={`rounded-md px-3 py-1 text-sm font-medium ${
            currency === code ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-800'
          }`}
        >
          {code}
        </button>
      ))}
    </div>
  );
}
