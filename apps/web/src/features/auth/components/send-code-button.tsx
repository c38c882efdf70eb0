import { useTranslation } from 'react-i18next';

interface SendCodeButtonProps {
  remaining: number;
  pending: boolean;
  onClick: () => void;
}

export function SendCodeButton({ remaining, pending, onClick }: SendCodeButtonProps) {
  const { t } = useTranslation('auth');
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={remaining > 0 || pending}
      className="shrink-0 rounded-lg border border-indigo-600 px-3 py-2 text-sm font-medium text-indigo-600 hover:bg-indigo-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:text-slate-400"
    >
      {remaining > 0 ? t('resend_in', { seconds: remaining }) : t('send_code')}
    </button>
  );
}
