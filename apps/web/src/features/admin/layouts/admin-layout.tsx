import { Role } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router-dom';
import { ROUTES } from '../../../lib/routes';
import { PageSuspense } from '../../../ui/page-suspense';
import { useAccount } from '../../session/use-account';

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-1.5 text-sm font-medium ${
    isActive ? 'bg-indigo-600 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
  }`;

/** The admin area's frame: its sections as tabs (settings only for root), the section below. */
export function AdminLayout() {
  const { t } = useTranslation('admin');
  const account = useAccount();
  const isRoot = (account.data?.role ?? 0) >= Role.Root;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
        <nav aria-label={t('sections_label')} className="mt-3 flex flex-wrap gap-2">
          <NavLink to={ROUTES.adminOverview} className={tabClass}>
            {t('tab_overview')}
          </NavLink>
          <NavLink to={ROUTES.adminUsers} className={tabClass}>
            {t('tab_users')}
          </NavLink>
          <NavLink to={ROUTES.adminChannels} className={tabClass}>
            {t('tab_channels')}
          </NavLink>
          <NavLink to={ROUTES.adminPrices} className={tabClass}>
            {t('tab_prices')}
          </NavLink>
          <NavLink to={ROUTES.adminPromos} className={tabClass}>
            {t('tab_promos')}
          </NavLink>
          <NavLink to={ROUTES.adminPayments} className={tabClass}>
            {t('tab_payments')}
          </NavLink>
          <NavLink to={ROUTES.adminLogs} className={tabClass}>
            {t('tab_logs')}
          </NavLink>
          <NavLink to={ROUTES.adminContent} className={tabClass}>
            {t('tab_content')}
          </NavLink>
          <NavLink to={ROUTES.adminAudit} className={tabClass}>
            {t('tab_audit')}
          </NavLink>
          {isRoot ? (
            <NavLink to={ROUTES.adminSettings} className={tabClass}>
              {t('tab_settings')}
            </NavLink>
          ) : null}
        </nav>
      </div>
      <PageSuspense>
        <Outlet />
      </PageSuspense>
    </div>
  );
}
