import '../../../i18n/namespaces/docs';
import { useTranslation } from 'react-i18next';
import { NavLink, useParams } from 'react-router-dom';
import { useSitePaths } from '../../../lib/use-site-paths';
import { NotFoundPage } from '../../../pages/not-found-page';
import { CodeBlock } from '../../../ui/code-block';
import { cardClass } from '../../../ui/styles';
import { useApiBaseUrl } from '../../system/use-api-base-url';
import { DOC_SECTIONS, findDocSection, type DocBlock } from '../docs-sections';
import { GroupLimitsTable } from './group-limits-table';

function Block({ block, baseUrl }: { block: DocBlock; baseUrl: string }) {
  const { t } = useTranslation('docs');
  switch (block.kind) {
    case 'text':
      return <p className="leading-relaxed text-slate-700">{t(block.key)}</p>;
    case 'list':
      return (
        <ul className="flex list-disc flex-col gap-1.5 pl-5 text-slate-700">
          {block.keys.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
      );
    case 'code':
      return <CodeBlock code={block.code(baseUrl)} language={block.language} />;
    case 'group-limits':
      return <GroupLimitsTable />;
  }
}

/** SPEC §2 documentation: a section list and the chosen section (introduction by default). */
export function DocsView() {
  const { t } = useTranslation('docs');
  const { sectionId } = useParams();
  const paths = useSitePaths();
  const baseUrl = useApiBaseUrl();
  const section = findDocSection(sectionId);
  if (!section) return <NotFoundPage />;
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <nav aria-label={t('sections_label')} className="md:w-56 md:shrink-0">
        <ul className="flex gap-1 overflow-x-auto pb-1 md:sticky md:top-20 md:flex-col md:overflow-visible">
          {DOC_SECTIONS.map((item) => (
            <li key={item.id} className="shrink-0">
              <NavLink
                to={paths.docs(item.id)}
                className={`block rounded-lg px-3 py-1.5 text-sm whitespace-nowrap ${
                  item.id === section.id
                    ? 'bg-indigo-50 font-medium text-indigo-700'
                    : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
                }`}
              >
                {t(`${item.key}_title`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <article className={`${cardClass} flex min-w-0 flex-1 flex-col gap-4`}>
        <h1 className="text-2xl font-semibold text-slate-900">{t(`${section.key}_title`)}</h1>
        {section.blocks.map((block, index) => (
          <Block key={index} block={block} baseUrl={baseUrl} />
        ))}
      </article>
    </div>
  );
}
