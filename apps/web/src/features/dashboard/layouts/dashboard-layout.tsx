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
import { useMediaQuery } from '../../../lib/use-media-query';
import { Tooltip } from '../../shell/components/tooltip';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center justify-center gap-3 rounded-lg px-2 py-2 text-sm font-medium md:justify-start md:px-3 ${
    isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

/** Below `md` the sidebar is a rail of icons (the desktop set is chosen by user agent, so a narrow window gets it too). */
const RAIL_QUERY = '(max-width: 767.98px)';
/** Said to screen readers always, shown beside the icon only on the wide sidebar. */
const WIDE_ONLY = 'sr-only md:not-sr-only';

/** The desktop dashboard: a sidebar with the sections, the account and logout; the section on the right. */
export function DashboardLayout() {
  const { t } = useTranslation('dashboard');
  const account = useAccount();
  const rail = useMediaQuery(RAIL_QUERY);
  return (
    <div className="flex min-h-screen">
      <aside className="sticky top-0 flex h-screen w-16 shrink-0 flex-col border-r border-slate-200 bg-white px-2 py-4 md:w-60 md:px-3">
        <div className="flex justify-center md:block md:px-2">
          <BrandLink nameClassName={WIDE_ONLY} />
        </div>
        <nav aria-label={t('sidebar_label')} className="mt-6 flex flex-1 flex-col gap-1">
          {visibleTo(SIDEBAR_ITEMS, account.data?.role ?? 0).map((item) => {
            const label = t(`nav_${item.key}`);
            const link = (
              <NavLink key={item.key} to={item.to} end={item.end} className={linkClass}>
                <NavIcon path={item.icon} />
                <span className={WIDE_ONLY}>{label}</span>
              </NavLink>
            );
            return rail ? (
              <Tooltip key={item.key} content={label} side="right">
                {link}
              </Tooltip>
            ) : (
              link
            );
          })}
        </nav>
        <div className="flex flex-col gap-2 border-t border-slate-200 pt-3 md:px-2">
          <p
            className="hidden truncate text-sm font-medium text-slate-800 md:block"
            title={account.data?.username}
          >
            {account.data ? account.data.display_name || account.data.username : '\u00a0'}
          </p>
          <div className="flex flex-col items-center gap-2 md:flex-row md:justify-between">
            <LanguageSwitch />
            <LogoutButton className="rounded-md px-1 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50 md:px-2 md:text-sm" />
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-3 py-6 md:px-6 md:py-8 lg:px-10">
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
