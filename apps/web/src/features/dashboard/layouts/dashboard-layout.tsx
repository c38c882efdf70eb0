import { NavLink, Outlet } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { IncidentBanner } from '../../incidents/components/incident-banner';
import { LanguageSwitch } from '../../shell/components/language-switch';
import { BrandLink } from '../../shell/layouts/brand-link';
import { useAccount } from '../../session/use-account';
import { LogoutButton } from '../components/logout-button';
import { NavIcon } from '../components/nav-icon';
import { SIDEBAR_ITEMS, visibleTo } from '../nav-items';
import { PageSuspense } from '../../../ui/page-suspense';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

/** The desktop dashboard: a sidebar with the sections, the account and logout; the section on the right. */
export function DashboardLayout() {
  const { t } = useTranslation('dashboard');
  const account = useAccount();
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 flex h-screen w-60 shrink-0 flex-col border-r border-slate-200 bg-white px-3 py-4">
        <div className="px-2">
          <BrandLink />
        </div>
        <nav aria-label={t('sidebar_label')} className="mt-6 flex flex-1 flex-col gap-1">
          {visibleTo(SIDEBAR_ITEMS, account.data?.role ?? 0).map((item) => (
            <NavLink key={item.key} to={item.to} end={item.end} className={linkClass}>
              <NavIcon path={item.icon} />
              {t(`nav_${item.key}`)}
            </NavLink>
          ))}
        </nav>
        <div className="flex flex-col gap-2 border-t border-slate-200 px-2 pt-3">
          <p className="truncate text-sm font-medium text-slate-800" title={account.data?.username}>
            {account.data ? account.data.display_name || account.data.username : '\u00a0'}
          </p>
          <div className="flex items-center justify-between">
            <LanguageSwitch />
            <LogoutButton />
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-6 py-8 lg:px-10">
        {/* At least the screen's height (less main's padding): a screen that fills it (the chat) takes the room the notices above leave. */}
        <div className="mx-auto flex min-h-[calc(100vh-4rem)] max-w-6xl flex-col gap-6">
          <IncidentBanner />
          <PageSuspense>
            <Outlet />
          </PageSuspense>
        </div>
      </main>
    </div>
  );
}
