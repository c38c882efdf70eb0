import { Link, NavLink, Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DOCS_SECTION_PATH, ROUTES } from '../../../lib/routes';
import { IncidentBanner } from '../../incidents/components/incident-banner';
import { useIsSignedIn } from '../../session/user-id-store';
import { LanguageSwitch } from '../components/language-switch';
import { BrandLink } from './brand-link';
import { PageSuspense } from '../../../ui/page-suspense';

const SITE_LINKS = [
  { key: 'nav_price', to: ROUTES.price },
  { key: 'nav_compare', to: ROUTES.compare },
  { key: 'nav_docs', to: DEFAULT_DOCS_SECTION_PATH },
  { key: 'nav_changelog', to: ROUTES.changelog },
  { key: 'nav_about', to: ROUTES.about },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `text-sm font-medium ${isActive ? 'text-indigo-700' : 'text-slate-600 hover:text-slate-900'}`;

/** The public site on the desktop set: brand, site sections, language, and sign-in or the dashboard. */
export function DesktopLayout() {
  const { t } = useTranslation('shell');
  const signedIn = useIsSignedIn();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="sticky top-0 z-50 border-b border-slate-200 bg-white/90 backdrop-blur">
        <nav
          aria-label={t('main_navigation')}
          className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 lg:px-8"
        >
          <BrandLink />
          <div className="hidden items-center gap-5 md:flex">
            {SITE_LINKS.map((link) => (
              <NavLink key={link.key} to={link.to} className={linkClass}>
                {t(link.key)}
              </NavLink>
            ))}
          </div>
          <div className="flex items-center gap-3">
            <LanguageSwitch />
            <Link
              to={signedIn ? ROUTES.dashboard : ROUTES.login}
              className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
            >
              {signedIn ? t('nav_dashboard') : t('nav_login')}
            </Link>
          </div>
        </nav>
      </header>
      <main className="flex flex-1 flex-col">
        <IncidentBanner className="mx-auto w-full max-w-6xl px-4 pt-4 lg:px-8" />
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
    </div>
  );
}
