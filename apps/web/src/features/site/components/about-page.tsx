import '../../../i18n/namespaces/site';
import { useTranslation } from 'react-i18next';
import { cardClass } from '../../../ui/styles';

const PARAGRAPHS = ['about_p1', 'about_p2', 'about_p3', 'about_p4'] as const;

export function AboutPage() {
  const { t } = useTranslation('site');
  return (
    <article className={`${cardClass} mx-auto flex w-full max-w-3xl flex-col gap-4`}>
      <h1 className="text-2xl font-semibold text-slate-900">{t('about_title')}</h1>
      {PARAGRAPHS.map((key) => (
        <p key={key} className="leading-relaxed text-slate-700">
          {t(key)}
        </p>
      ))}
    </article>
  );
}
