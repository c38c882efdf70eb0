import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DOCS_SECTION_PATH, ROUTES } from '../../../lib/routes';
import { IncidentBanner } from '../../incidents/components/incident-banner';
import { useIsSignedIn } from '../../session/user-id-store';
import { LanguageSwitch } from '../components/language-switch';
import { MOBILE_BOTTOM_BAR_PX, useMobileBodyHeight } from '../mobile-body-height';
import { BrandLink } from './brand-link';
import { PageSuspense } from '../../../ui/page-suspense';

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex flex-1 flex-col items-center justify-center text-xs font-medium ${isActive ? 'text-indigo-600' : 'text-slate-500'}`;

/** The mobile home wrapper (SPEC §2): the body follows the visible viewport above a 72 px bottom bar. */
export function MobileLayout() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  useMobileBodyHeight(pathname);
  const onLogin = pathname === ROUTES.login;
  const signedIn = useIsSignedIn();
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-14 shrink-0 items-center justify-between border-b border-slate-200 bg-white px-4">
        <BrandLink />
        <LanguageSwitch />
      </header>
      <main className="flex flex-1 flex-col overflow-y-auto">
        <IncidentBanner className="px-4 pt-3" />
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
      {!onLogin && (
        <nav
          aria-label={t('bottom_navigation')}
          style={{ height: MOBILE_BOTTOM_BAR_PX }}
          className="fixed inset-x-0 bottom-0 z-40 flex border-t border-slate-200 bg-white"
        >
          <NavLink to={ROUTES.home} end className={tabClass}>
            {t('nav_home')}
          </NavLink>
          <NavLink to={ROUTES.price} className={tabClass}>
            {t('nav_price')}
          </NavLink>
          <NavLink to={DEFAULT_DOCS_SECTION_PATH} className={tabClass}>
            {t('nav_docs')}
          </NavLink>
          <NavLink to={signedIn ? ROUTES.dashboard : ROUTES.login} className={tabClass}>
            {signedIn ? t('nav_dashboard') : t('nav_login')}
          </NavLink>
        </nav>
      )}
    </div>
  );
}
