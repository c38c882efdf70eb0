import { useTranslation } from 'react-i18next';
import { useSignOut } from '../../session/use-sign-out';

export function LogoutButton({ className }: { className?: string }) {
  const { t } = useTranslation('dashboard');
  const signOut = useSignOut();
  return (
    <button
      type="button"
      onClick={() => signOut.mutate()}
      disabled={signOut.isPending}
      className={
        className ??
        'rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50'
      }
    >
      {t('logout')}
    </button>
  );
}
