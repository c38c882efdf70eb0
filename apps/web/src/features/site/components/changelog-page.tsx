import '../../../i18n/namespaces/site';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../ui/page-header';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass } from '../../../ui/styles';
import { useSystemStatus } from '../../system/use-system-status';
import { useVersions } from '../use-versions';
import { formatCalendarDay } from '../calendar-day';
import { Markdown } from '../../../ui/markdown';

/** SPEC §2 changelog: admin's `/api/versions`, newest first, a page at a time. */
export function ChangelogPage() {
  const { t, i18n } = useTranslation('site');
  const versions = useVersions();
  const status = useSystemStatus();
  const entries = versions.data?.pages.flatMap((page) => page.items);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      <PageHeader
        title={t('changelog_title')}
        subtitle={
          status.data ? t('changelog_current', { version: status.data.version }) : t('changelog_subtitle')
        }
      />
      {versions.isPending && <Loading />}
      {versions.isError && <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />}
      {entries && entries.length === 0 && <EmptyState text={t('changelog_empty')} />}
      {entries?.map((entry) => (
        <article key={entry.id} className={cardClass} aria-labelledby={`version-${entry.id}`}>
          <div className="flex flex-wrap items-baseline gap-x-3">
            <h2 id={`version-${entry.id}`} className="text-lg font-semibold text-slate-900">
              {entry.version}
            </h2>
            <p className="font-medium text-slate-700">{entry.title}</p>
            <time dateTime={entry.release_date} className="text-sm text-slate-500">
              {formatCalendarDay(entry.release_date, i18n.language)}
            </time>
          </div>
          {entry.content && <Markdown text={entry.content} className="mt-2 leading-relaxed text-slate-700" />}
        </article>
      ))}
      {versions.hasNextPage && (
        <button
          type="button"
          className={`${buttonClass.secondary} self-center`}
          disabled={versions.isFetchingNextPage}
          onClick={() => void versions.fetchNextPage()}
        >
          {versions.isFetchingNextPage ? t('common:loading') : t('changelog_more')}
        </button>
      )}
    </div>
  );
}
