import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { changeLanguage, currentLanguage } from '../../../i18n/i18n';
import { LANGUAGES, type Language } from '../../../i18n/language';
import { buttonClass, cardClass } from '../../../ui/styles';
import { SelectField } from '../../../ui/field';
import { CURRENCIES, normalizeCurrency, useDefaultCurrency, type Currency } from '../../currency/currency';
import { notify } from '../../shell/notify';
import { updateSetting } from '../settings-api';

/**
 * Default currency (RUB or USD, anything else RUB) and interface language. Both are kept on this
 * device (SPEC §3) and sent to the account; if the server refuses, the user is told the choice is
 * kept here only.
 */
export function ApplicationSettings() {
  const { t } = useTranslation('settings');
  const [savedCurrency, saveCurrency] = useDefaultCurrency();
  const [currency, setCurrency] = useState<Currency>(savedCurrency);
  const [language, setLanguage] = useState<Language>(currentLanguage());
  const save = useMutation({
    mutationFn: async () => {
      saveCurrency(currency);
      await changeLanguage(language);
      await updateSetting({ default_currency: currency, language });
    },
    onSuccess: () => notify.success(t('app_saved')),
    onError: (error) => notify.warning(t('app_saved_locally'), { description: errorMessage(error, t) }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form
      onSubmit={submit}
      className={`${cardClass} flex flex-col gap-4`}
      aria-labelledby="app-settings-title"
    >
      <h2 id="app-settings-title" className="text-lg font-semibold text-slate-900">
        {t('app_title')}
      </h2>
      <SelectField
        id="settings-currency"
        label={t('default_currency')}
        name="defaultCurrency"
        value={currency}
        onChange={(e) => setCurrency(normalizeCurrency(e.target.value))}
      >
        {CURRENCIES.map((code) => (
          <option key={code} value={code}>
            {t(`currency_${code.toLowerCase()}`)}
          </option>
        ))}
      </SelectField>
      <SelectField
        id="settings-language"
        label={t('language')}
        name="language"
        value={language}
        onChange={(e) => setLanguage(e.target.value as Language)}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {t(`language_${code}`)}
          </option>
        ))}
      </SelectField>
      <div>
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          {t('save')}
        </button>
      </div>
    </form>
  );
}
