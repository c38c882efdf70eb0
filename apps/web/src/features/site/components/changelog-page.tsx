import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../ui/page-header';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { cardClass } from '../../../ui/styles';
import { useSystemStatus } from '../../system/use-system-status';
import { useVersions, type VersionEntry } from '../versions-api';

function formatDate(date: VersionEntry['date'], locale: string): string {
  if (date === null) return '';
  const value = typeof date === 'number' ? new Date(date * 1000) : new Date(date);
  return Number.isNaN(value.getTime())
    ? String(date)
    : new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(value);
}

/** SPEC §2 changelog, from /api/versions. */
export function ChangelogPage() {
  const { t, i18n } = useTranslation('site');
  const versions = useVersions();
  const status = useSystemStatus();
  const locale = i18n.language === 'en' ? 'en-US' : 'ru-RU';
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
      {versions.data && versions.data.length === 0 && <EmptyState text={t('changelog_empty')} />}
      {versions.data?.map((entry) => (
        <article key={entry.key} className={cardClass}>
          <div className="flex flex-wrap items-baseline gap-x-3">
            <h2 className="text-lg font-semibold text-slate-900">{entry.version}</h2>
            {entry.title && <p className="font-medium text-slate-700">{entry.title}</p>}
            <p className="text-sm text-slate-500">{formatDate(entry.date, locale)}</p>
          </div>
          {entry.notes && (
            <p className="mt-2 leading-relaxed whitespace-pre-line text-slate-700">{entry.notes}</p>
          )}
        </article>
      ))}
    </div>
  );
}
