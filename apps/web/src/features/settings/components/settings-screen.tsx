import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { ROUTES, SETTINGS_TABS, type SettingsTab } from '../../../lib/routes';
import { PageHeader } from '../../../ui/page-header';
import { ErrorState, Loading } from '../../../ui/query-state';
import { useAccount } from '../../session/use-account';
import { ApplicationSettings } from './application-settings';
import { InviteCard } from './invite-card';
import { LinkedAccounts } from './linked-accounts';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';

function tabFrom(value: string | null): SettingsTab {
  return SETTINGS_TABS.find((tab) => tab === value) ?? 'account';
}

/** SPEC §2 settings: the account tab and the application tab, kept in `?tab=`. */
export function SettingsScreen() {
  const { t } = useTranslation('settings');
  const [params] = useSearchParams();
  const tab = tabFrom(params.get('tab'));
  const account = useAccount();
  return (
    <>
      <PageHeader title={t('title')} />
      <nav aria-label={t('tabs_label')} className="flex gap-1 self-start rounded-lg bg-slate-100 p-1">
        {SETTINGS_TABS.map((name) => (
          <Link
            key={name}
            to={`${ROUTES.dashboardSettings}?tab=${name}`}
            replace
            aria-current={tab === name ? 'page' : undefined}
            className={`rounded-md px-4 py-1.5 text-sm font-medium ${
              tab === name ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-800'
            }`}
          >
            {t(`tab_${name}`)}
          </Link>
        ))}
      </nav>
      {tab === 'application' && <ApplicationSettings />}
      {tab === 'account' && account.isPending && <Loading />}
      {tab === 'account' && account.isError && (
        <ErrorState error={account.error} onRetry={() => void account.refetch()} />
      )}
      {tab === 'account' && account.data && (
        // grid-cols-1 (minmax(0, 1fr)): without it the phone's one column grows to the invite link's width and the cards run off the screen.
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <ProfileForm key={account.data.id} account={account.data} />
          <PasswordForm />
          <LinkedAccounts account={account.data} />
          <InviteCard account={account.data} />
        </div>
      )}
    </>
  );
}
