import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES } from '../../../lib/routes';
import { useCookieConsent } from '../cookie-consent';

export function CookieBanner() {
  const { t } = useTranslation('shell');
  const { accepted, accept } = useCookieConsent();
  if (accepted) return null;
  return (
    <section
      aria-label={t('cookie_banner_label')}
      className="fixed inset-x-3 bottom-[calc(var(--bottom-bar-height,0px)+0.75rem)] z-[9000] rounded-xl border border-slate-200 bg-white p-4 shadow-lg md:inset-x-auto md:bottom-4 md:left-4 md:max-w-md"
    >
      <p className="text-sm text-slate-700">
        {t('cookie_text')}{' '}
        <Link to={ROUTES.privacy} className="text-indigo-600 underline hover:text-indigo-800">
          {t('cookie_privacy_link')}
        </Link>
      </p>
      <button
        type="button"
        onClick={accept}
        className="mt-3 rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
      >
        {t('cookie_accept')}
      </button>
    </section>
  );
}
