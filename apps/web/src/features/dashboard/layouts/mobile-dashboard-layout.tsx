import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { IncidentBanner } from '../../incidents/components/incident-banner';
import { LanguageSwitch } from '../../shell/components/language-switch';
import { BrandLink } from '../../shell/layouts/brand-link';
import { MOBILE_BOTTOM_BAR_PX, useMobileBodyHeight } from '../../shell/mobile-body-height';
import { LogoutButton } from '../components/logout-button';
import { NavIcon } from '../components/nav-icon';
import { BOTTOM_BAR_ITEMS } from '../nav-items';
import { PageSuspense } from '../../../ui/page-suspense';

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `flex flex-1 flex-col items-center justify-center gap-1 text-[11px] font-medium ${
    isActive ? 'text-indigo-600' : 'text-slate-500'
  }`;

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
      <nav
        aria-label={t('bottom_bar_label')}
        style={{ height: MOBILE_BOTTOM_BAR_PX }}
        className="fixed inset-x-0 bottom-0 z-40 flex border-t border-slate-200 bg-white"
      >
        {BOTTOM_BAR_ITEMS.map((item) => (
          <NavLink key={item.key} to={item.to} end={item.end} className={tabClass}>
            <NavIcon path={item.icon} />
            {t(`nav_${item.key}`)}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
