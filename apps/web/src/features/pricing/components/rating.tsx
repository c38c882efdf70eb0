import { useTranslation } from 'react-i18next';

/** A 1–5 rating as five dots, read out as "4 of 5". */
export function Rating({ value }: { value: number }) {
  const { t } = useTranslation('pricing');
  return (
    <span className="inline-flex gap-0.5" role="img" aria-label={t('rating_of', { value })}>
      {[1, 2, 3, 4, 5].map((dot) => (
        <span
          key={dot}
          className={`size-2 rounded-full ${dot <= value ? 'bg-indigo-500' : 'bg-slate-200'}`}
        />
      ))}
    </span>
  );
}
