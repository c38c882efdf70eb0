import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/error-message';

/** A failed call, said plainly with the server's words, and a way to try again. Never invented data. */
export function ErrorState({
  error,
  onRetry,
  title,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
}) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      <p className="font-medium">{title ?? t('load_failed')}</p>
      <p className="mt-1">{errorMessage(error, t)}</p>
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 font-medium text-red-900 underline">
          {t('retry')}
        </button>
      )}
    </div>
  );
}

export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation('common');
  return (
    <p role="status" className="py-6 text-center text-sm text-slate-500">
      {label ?? t('loading')}
    </p>
  );
}

export function EmptyState({ text }: { text: string }) {
  return <p className="py-8 text-center text-sm text-slate-500">{text}</p>;
}
