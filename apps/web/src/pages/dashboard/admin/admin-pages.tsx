import '../../../i18n/namespaces/admin';
import '../../../i18n/namespaces/activity';
import { Role } from '@tollgate/contracts';
import { AdminLayout } from '../../../features/admin/layouts/admin-layout';
import { AuditScreen } from '../../../features/admin/components/audit-screen';
import { ChannelsScreen } from '../../../features/admin/components/channels-screen';
import { PricesScreen } from '../../../features/admin/components/prices-screen';
import { PromoScreen } from '../../../features/admin/components/promo-screen';
import { LogsScreen } from '../../../features/admin/components/logs-screen';
import { ChangelogEditor } from '../../../features/admin/components/changelog-editor';
import { IncidentsEditor } from '../../../features/admin/components/incidents-editor';
import { OverviewScreen } from '../../../features/admin/components/overview-screen';
import { PaymentsScreen } from '../../../features/admin/components/payments-screen';
import { RequireAdmin } from '../../../app/guards';
import { SettingsScreen } from '../../../features/admin/components/settings-screen';
import { UserDetailScreen } from '../../../features/admin/components/user-detail-screen';
import { UsersScreen } from '../../../features/admin/components/users-screen';

/** `/dashboard/admin/*`: admins and root only; everyone else sees the not-found page. */
export function AdminAreaPage() {
  return (
    <RequireAdmin>
      <AdminLayout />
    </RequireAdmin>
  );
}

export function AdminUsersPage() {
  return <UsersScreen />;
}

export function AdminUserPage() {
  return <UserDetailScreen />;
}

export function AdminChannelsPage() {
  return <ChannelsScreen />;
}

export function AdminSettingsPage() {
  return (
    <RequireAdmin minimum={Role.Root}>
      <SettingsScreen />
    </RequireAdmin>
  );
}

export function AdminPricesPage() {
  return <PricesScreen />;
}

export function AdminPromoPage() {
  return <PromoScreen />;
}

export function AdminLogsPage() {
  return <LogsScreen />;
}

export function AdminPaymentsPage() {
  return <PaymentsScreen />;
}

export function AdminAuditPage() {
  return <AuditScreen />;
}

export function AdminOverviewPage() {
  return <OverviewScreen />;
}

/** The changelog and the incidents: what the public site and the status page show. */
export function AdminContentPage() {
  return (
    <div className="flex flex-col gap-6">
      <IncidentsEditor />
      <ChangelogEditor />
    </div>
  );
}
