import '../../../i18n/namespaces/site';
import { useTranslation } from 'react-i18next';
import { cardClass } from '../../../ui/styles';
import { LEGAL_DOCUMENTS, type LegalDocument } from '../legal-documents';

export function LegalPage({ document }: { document: LegalDocument }) {
  const { t } = useTranslation('site');
  const sections = Array.from({ length: LEGAL_DOCUMENTS[document] }, (_, i) => i + 1);
  return (
    <article className={`${cardClass} mx-auto flex w-full max-w-3xl flex-col gap-4`}>
      <header>
        <h1 className="text-2xl font-semibold text-slate-900">{t(`${document}_title`)}</h1>
        <p className="mt-1 text-sm text-slate-500">{t('updated')}</p>
      </header>
      {sections.map((n) => (
        <section key={n}>
          <h2 className="font-semibold text-slate-900">{t(`${document}_${n}_title`)}</h2>
          <p className="mt-1 leading-relaxed text-slate-700">{t(`${document}_${n}_text`)}</p>
        </section>
      ))}
    </article>
  );
}
