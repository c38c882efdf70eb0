import { useQuery } from '@tanstack/react-query';
import { Role, TokenStatus, UserStatus } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { queryKeys } from '../../../api/query-keys';
import { ROUTES } from '../../../lib/routes';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { cardClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import { fetchAudit } from '../admin-audit-api';
import { fetchPayments } from '../admin-payments-api';
import { fetchAdminLogs, fetchUser, fetchUserTokens } from '../admin-api';
import { groupLabel } from '../group-label';
import { useRubles } from '../use-rubles';
import { tableDateTime } from '../../../i18n/date-time';

/** The usage shown on a user's page: the last 30 days (the log's ranges stay under 31, SPEC §5). */
const RECENT_USAGE_SECONDS = 30 * 86_400;

const ROLE_KEYS: Record<number, string> = {
  [Role.User]: 'role_user',
  [Role.Admin]: 'role_admin',
  [Role.Root]: 'role_root',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={cardClass} aria-label={title}>
      <h3 className="mb-3 text-base font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** A table that scrolls sideways inside its card when the window is narrower than its columns. */
function ScrollingTable({ children }: { children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-left text-sm">{children}</table>
    </div>
  );
}

/** One user: profile, balance, API keys (masked), recent usage and what operators changed. */
export function UserDetailScreen() {
  const { t, i18n } = useTranslation('admin');
  const money = useMoney();
  const rubles = useRubles();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const user = useQuery({ queryKey: queryKeys.adminUser(id), queryFn: () => fetchUser(id), enabled: valid });
  const tokens = useQuery({
    queryKey: queryKeys.adminUserTokens(id),
    queryFn: () => fetchUserTokens(id),
    enabled: valid,
  });
  const username = user.data?.username;
  const usage = useQuery({
    queryKey: queryKeys.adminLogPage({ username, recent: true }, 1),
    queryFn: () => {
      const now = Math.floor(Date.now() / 1000);
      return fetchAdminLogs(
        { start_timestamp: now - RECENT_USAGE_SECONDS, end_timestamp: now, type: 0, username },
        1,
      );
    },
    enabled: username !== undefined,
  });
  const payments = useQuery({
    queryKey: queryKeys.adminPaymentPage({ user_id: id }, 1),
    queryFn: () => fetchPayments({ user_id: id }, 1),
    enabled: valid,
  });
  const audit = useQuery({
    queryKey: queryKeys.adminAuditPage({ target_kind: 'user', target_id: String(id) }, 1),
    queryFn: () => fetchAudit({ target_kind: 'user', target_id: String(id) }, 1),
    enabled: valid,
  });
  const time = tableDateTime(i18n.language);
  const when = (seconds: number) => (seconds > 0 ? time.format(new Date(seconds * 1000)) : '—');

  if (!valid) return <EmptyState text={t('user_not_found')} />;
  if (user.isPending) return <Loading />;
  if (user.isError) return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  const profile = user.data;
  return (
    <div className="flex flex-col gap-4">
      <Link to={ROUTES.adminUsers} className="text-sm text-indigo-600 hover:underline">
        ← {t('users_title')}
      </Link>
      <Section title={t('user_profile', { username: profile.username })}>
        <dl className="grid gap-3 text-sm md:grid-cols-4">
          {[
            ['ID', String(profile.id)],
            [t('display_name'), profile.display_name || '—'],
            ['E-mail', profile.email ?? '—'],
            [t('group'), groupLabel(profile.group, t)],
            [t('role'), t(ROLE_KEYS[profile.role] ?? 'role_user')],
            [t('status'), profile.status === UserStatus.Enabled ? t('status_enabled') : t('status_disabled')],
            [t('balance'), money.formatQuota(profile.quota)],
            [t('used'), money.formatQuota(profile.used_quota)],
            [t('requests'), String(profile.request_count)],
            [t('user_created'), when(profile.created_time)],
          ].map(([label, value]) => (
            <div key={label}>
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className="font-medium" data-testid={`user-detail-${label}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section title={t('user_keys')}>
        {tokens.isPending ? <Loading /> : null}
        {tokens.isError ? <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} /> : null}
        {tokens.data && tokens.data.items.length === 0 ? <EmptyState text={t('user_keys_empty')} /> : null}
        {tokens.data && tokens.data.items.length > 0 ? (
          <ScrollingTable>
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="px-2 py-2">{t('user_key_name')}</th>
                <th className="px-2 py-2">{t('user_key')}</th>
                <th className="px-2 py-2">{t('status')}</th>
                <th className="px-2 py-2">{t('used')}</th>
                <th className="px-2 py-2">{t('user_key_remaining')}</th>
                <th className="px-2 py-2">{t('user_key_used_at')}</th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.items.map((token) => (
                <tr key={token.id} className="border-t border-slate-100" data-testid="user-key-row">
                  <td className="px-2 py-2">{token.name}</td>
                  <td className="px-2 py-2 font-mono text-xs">{token.key}</td>
                  <td className="px-2 py-2">
                    {token.status === TokenStatus.Enabled ? t('status_enabled') : t('status_disabled')}
                  </td>
                  <td className="px-2 py-2 whitespace-nowrap">{money.formatQuota(token.used_quota)}</td>
                  <td className="px-2 py-2 whitespace-nowrap">
                    {token.unlimited_quota ? t('user_key_unlimited') : money.formatQuota(token.remain_quota)}
                  </td>
                  <td className="px-2 py-2 whitespace-nowrap">{when(token.accessed_time)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        ) : null}
      </Section>

      <Section title={t('tab_payments')}>
        {payments.isPending ? <Loading /> : null}
        {payments.isError ? (
          <ErrorState error={payments.error} onRetry={() => void payments.refetch()} />
        ) : null}
        {payments.data && payments.data.items.length === 0 ? <EmptyState text={t('payments_empty')} /> : null}
        {payments.data && payments.data.items.length > 0 ? (
          <ScrollingTable>
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="px-2 py-2">ID</th>
                <th className="px-2 py-2">{t('logs_time')}</th>
                <th className="px-2 py-2">{t('payments_provider')}</th>
                <th className="px-2 py-2">{t('payments_amount')}</th>
                <th className="px-2 py-2">{t('status')}</th>
                <th className="px-2 py-2">{t('payments_refunded')}</th>
              </tr>
            </thead>
            <tbody>
              {payments.data.items.map((payment) => (
                <tr key={payment.id} className="border-t border-slate-100" data-testid="user-payment-row">
                  <td className="px-2 py-2 text-slate-500">{payment.id}</td>
                  <td className="px-2 py-2 whitespace-nowrap">{when(payment.created_at)}</td>
                  <td className="px-2 py-2">{t(`payment_provider_${payment.provider}`)}</td>
                  <td className="px-2 py-2 whitespace-nowrap">{rubles(payment.amount)}</td>
                  <td className="px-2 py-2">{t(`payment_status_${payment.status}`)}</td>
                  <td className="px-2 py-2 whitespace-nowrap">
                    {Number(payment.refunded_amount) === 0 ? '—' : rubles(payment.refunded_amount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        ) : null}
      </Section>

      <Section title={t('user_usage')}>
        {usage.isPending && username !== undefined ? <Loading /> : null}
        {usage.isError ? <ErrorState error={usage.error} onRetry={() => void usage.refetch()} /> : null}
        {usage.data && usage.data.items.length === 0 ? <EmptyState text={t('logs_empty')} /> : null}
        {usage.data && usage.data.items.length > 0 ? (
          <ScrollingTable>
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="px-2 py-2">{t('logs_time')}</th>
                <th className="px-2 py-2">{t('logs_type')}</th>
                <th className="px-2 py-2">{t('logs_key')}</th>
                <th className="px-2 py-2">{t('price_model')}</th>
                <th className="px-2 py-2">{t('logs_quota')}</th>
              </tr>
            </thead>
            <tbody>
              {usage.data.items.map((item) => (
                <tr key={item.id} className="border-t border-slate-100" data-testid="user-usage-row">
                  <td className="px-2 py-2 whitespace-nowrap">{when(item.created_at)}</td>
                  <td className="px-2 py-2">{t(`logs_type_${item.type}`)}</td>
                  <td className="px-2 py-2">{item.token_name}</td>
                  <td className="px-2 py-2">{item.model_name}</td>
                  <td className="px-2 py-2 whitespace-nowrap">{money.formatQuota(item.quota)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        ) : null}
      </Section>

      <Section title={t('user_changes')}>
        {audit.isPending ? <Loading /> : null}
        {audit.isError ? <ErrorState error={audit.error} onRetry={() => void audit.refetch()} /> : null}
        {audit.data && audit.data.items.length === 0 ? <EmptyState text={t('audit_empty')} /> : null}
        {audit.data && audit.data.items.length > 0 ? (
          <ul className="flex flex-col gap-1 text-sm">
            {audit.data.items.map((entry) => (
              <li key={entry.id} data-testid="user-change">
                <span className="text-slate-500">{when(entry.created_at)}</span>{' '}
                <span className="font-mono text-xs">{entry.action}</span> #{entry.actor_id}
                {entry.changed.length > 0 ? ` · ${entry.changed.join(', ')}` : ''}
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
    </div>
  );
}
