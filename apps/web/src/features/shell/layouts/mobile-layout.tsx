import { Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DOCS_SECTION_PATH, ROUTES } from '../../../lib/routes';
import { IncidentBanner } from '../../incidents/components/incident-banner';
import { useIsSignedIn } from '../../session/user-id-store';
import { BottomBar, BottomBarLink } from '../components/bottom-bar';
import { LanguageSwitch } from '../components/language-switch';
import { useMobileBodyHeight } from '../mobile-body-height';
import { BrandLink } from './brand-link';
import { PageSuspense } from '../../../ui/page-suspense';

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
        <BottomBar label={t('bottom_navigation')}>
          <BottomBarLink to={ROUTES.home} end>
            {t('nav_home')}
          </BottomBarLink>
          <BottomBarLink to={ROUTES.price}>{t('nav_price')}</BottomBarLink>
          <BottomBarLink to={DEFAULT_DOCS_SECTION_PATH}>{t('nav_docs')}</BottomBarLink>
          <BottomBarLink to={signedIn ? ROUTES.dashboard : ROUTES.login}>
            {signedIn ? t('nav_dashboard') : t('nav_login')}
          </BottomBarLink>
        </BottomBar>
      )}
    </div>
  );
}
