import { useTranslation } from 'react-i18next';
import { useAccount } from '../../session/use-account';
import { dayPartNow } from '../greeting';

/** "Доброе утро, Анна" by the local hour (SPEC §4). */
export function GreetingTitle() {
  const { t } = useTranslation('dashboard');
  const account = useAccount();
  const name = account.data ? account.data.display_name || account.data.username : '';
  const part = dayPartNow();
  return (
    <div>
      <h1 className="text-2xl font-semibold text-slate-900">
        {name ? t(`greeting_${part}_named`, { name }) : t(`greeting_${part}`)}
      </h1>
      <p className="mt-1 text-sm text-slate-500">{t('home_subtitle')}</p>
    </div>
  );
}
