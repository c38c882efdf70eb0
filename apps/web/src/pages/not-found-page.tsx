import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../lib/routes';

export function NotFoundPage() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  // The admin area is in the desktop route set only (SPEC §2): on a phone, say where it is.
  const adminOnPhone = pathname === ROUTES.dashboardAdmin || pathname.startsWith(`${ROUTES.dashboardAdmin}/`);
  return (
    <section className="mx-auto flex max-w-md flex-1 flex-col items-center justify-center gap-4 p-8 text-center">
      <p className="text-6xl font-bold text-indigo-600">{t('not_found_code')}</p>
      <h1 className="text-2xl font-semibold">{t('not_found_title')}</h1>
      <p className="text-slate-600">{t(adminOnPhone ? 'not_found_admin_text' : 'not_found_text')}</p>
      <Link
        to={ROUTES.home}
        className="rounded-lg bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700"
      >
        {t('not_found_home')}
      </Link>
    </section>
  );
}
