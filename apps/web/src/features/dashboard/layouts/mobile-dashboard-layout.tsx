import { Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { IncidentBanner } from '../../incidents/components/incident-banner';
import { BottomBar, BottomBarLink } from '../../shell/components/bottom-bar';
import { LanguageSwitch } from '../../shell/components/language-switch';
import { BrandLink } from '../../shell/layouts/brand-link';
import { useMobileBodyHeight } from '../../shell/mobile-body-height';
import { LogoutButton } from '../components/logout-button';
import { NavIcon } from '../components/nav-icon';
import { BOTTOM_BAR_ITEMS } from '../nav-items';
import { PageSuspense } from '../../../ui/page-suspense';

/** The phone dashboard: a slim header, the section scrolling above a 72 px bottom bar (SPEC §2). */
export function MobileDashboardLayout() {
  const { t } = useTranslation('dashboard');
  const { pathname } = useLocation();
  useMobileBodyHeight(pathname);
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-14 shrink-0 items-center justify-between border-b border-slate-200 bg-white px-4">
        <BrandLink />
        <div className="flex items-center gap-2">
          <LanguageSwitch />
          <LogoutButton />
        </div>
      </header>
      <main className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-4 py-5">
        <IncidentBanner />
        <PageSuspense>
          <Outlet />
        </PageSuspense>
      </main>
      <BottomBar label={t('bottom_bar_label')}>
        {BOTTOM_BAR_ITEMS.map((item) => (
          <BottomBarLink key={item.key} to={item.to} end={item.end} icon={<NavIcon path={item.icon} />}>
            {t(`nav_${item.key}`)}
          </BottomBarLink>
        ))}
      </BottomBar>
    </div>
  );
}
