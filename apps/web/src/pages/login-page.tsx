import '../i18n/namespaces/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { DEFAULT_LOGIN_TAB, LOGIN_TABS, loginPath, type LoginTab } from '../lib/routes';
import { FormError } from '../ui/form-error';
import { LoginForm } from '../features/auth/components/login-form';
import { OAuthButtons } from '../features/auth/components/oauth-buttons';
import { RegisterForm } from '../features/auth/components/register-form';
import { ResetForm } from '../features/auth/components/reset-form';
import { useSystemStatus } from '../features/system/use-system-status';

function tabFrom(value: string | null, tabs: readonly LoginTab[]): LoginTab {
  return (
    tabs.find((tab) => tab === value) ?? (tabs.includes(DEFAULT_LOGIN_TAB) ? DEFAULT_LOGIN_TAB : 'login')
  );
}

/**
 * /login: register, login and reset tabs, the active one in `?tab=` (default register). While an
 * operator has closed registration (/api/status `register_enabled`), there is no register tab.
 */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const status = useSystemStatus();
  const tabs =
    status.data?.register_enabled === false ? LOGIN_TABS.filter((name) => name !== 'register') : LOGIN_TABS;
  const tab = tabFrom(params.get('tab'), tabs);
  const [oauthError, setOAuthError] = useState<string | null>(null);

  return (
    <section className="flex flex-1 items-start justify-center px-4 py-8 md:items-center md:py-16">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
        <h1 className="text-2xl font-semibold text-slate-900">{t('page_title')}</h1>
        <p className="mt-1 text-sm text-slate-500">{t('page_subtitle')}</p>
        <nav
          aria-label={t('tabs_label')}
          className={`mt-6 grid ${tabs.length === 3 ? 'grid-cols-3' : 'grid-cols-2'} gap-1 rounded-lg bg-slate-100 p-1`}
        >
          {tabs.map((name) => (
            <Link
              key={name}
              to={loginPath(name)}
              replace
              aria-current={tab === name ? 'page' : undefined}
              className={`flex items-center justify-center rounded-md px-2 py-1.5 text-center text-sm font-medium ${
                tab === name ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-800'
              }`}
            >
              {t(`tab_${name}`)}
            </Link>
          ))}
        </nav>
        <div className="mt-6">
          {tab === 'register' && <RegisterForm key="register" />}
          {tab === 'login' && (
            <div className="flex flex-col gap-4">
              <LoginForm key="login" />
              <FormError message={oauthError} />
              <OAuthButtons onError={setOAuthError} />
            </div>
          )}
          {tab === 'reset' && <ResetForm key="reset" />}
        </div>
      </div>
    </section>
  );
}
