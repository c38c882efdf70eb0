import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../../../i18n/i18n';

/** Toggles ru ⇄ en and remembers the choice (SPEC §4). */
export function LanguageSwitch() {
  const { t } = useTranslation('common');
  const next = currentLanguage() === 'ru' ? 'en' : 'ru';
  return (
    <button
      type="button"
      onClick={() => void changeLanguage(next)}
      aria-label={t('language_toggle_label')}
      className="rounded-md border border-slate-300 px-2.5 py-1 text-xs font-semibold text-slate-700 hover:bg-slate-100"
    >
      {t('language_toggle')}
    </button>
  );
}
