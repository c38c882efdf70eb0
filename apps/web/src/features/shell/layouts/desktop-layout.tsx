import { Link, Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../app/routes';
import { LanguageSwitch } from '../components/language-switch';
import { BrandLink } from './brand-link';

/** The public site on the desktop set: header with brand, language and sign-in. */
export function DesktopLayout() {
  const { t } = useTranslation('shell');
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-50 border-b border-slate-200 bg-white/90 backdrop-blur">
        <nav
          aria-label={t('main_navigation')}
          className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 lg:px-8"
        >
          <BrandLink />
          <div className="flex items-center gap-3">
            <LanguageSwitch />
            <Link
              to={ROUTES.login}
              className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
            >
              {t('nav_login')}
            </Link>
          </div>
        </nav>
      </header>
      <main className="flex flex-1 flex-col">
        <Outlet />
      </main>
    </div>
  );
}
