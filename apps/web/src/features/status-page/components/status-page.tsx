import '../../../i18n/namespaces/status-page';
import type { ComponentState, ComponentStatus, IncidentView, StatusComponent } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../../ui/markdown';
import { PageHeader } from '../../../ui/page-header';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { cardClass } from '../../../ui/styles';
import { formatCalendarDay } from '../../site/calendar-day';
import { useStatusPage } from '../use-status-page';
import { incidentInLanguage } from '../../incidents/texts-in-language';
import { intlLocale } from '../../../i18n/language';

const STATE_BAR: Record<ComponentState, string> = {
  operational: 'bg-emerald-500',
  degraded: 'bg-amber-400',
  outage: 'bg-red-500',
};
const STATE_BADGE: Record<ComponentState, string> = {
  operational: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  degraded: 'bg-amber-50 text-amber-900 ring-amber-200',
  outage: 'bg-red-50 text-red-800 ring-red-200',
};
const OVERALL_BANNER: Record<ComponentState, string> = {
  operational: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  degraded: 'border-amber-200 bg-amber-50 text-amber-900',
  outage: 'border-red-200 bg-red-50 text-red-900',
};

function useFormats() {
  const { t, i18n } = useTranslation('status_page');
  const locale = intlLocale(i18n.language);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const percent = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  return {
    time: (epochSeconds: number) => dateTime.format(new Date(epochSeconds * 1000)),
    percent: (value: number) => percent.format(value),
    day: (date: string) => formatCalendarDay(date, i18n.language),
    duration(seconds: number): string {
      const minutes = Math.max(1, Math.round(seconds / 60));
      if (minutes < 60) return t('duration_minutes', { count: minutes });
      if (minutes < 24 * 60)
        return t('duration_hours', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
      return t('duration_days', {
        days: Math.floor(minutes / 1440),
        hours: Math.floor((minutes % 1440) / 60),
      });
    },
  };
}

function StateBadge({ state }: { state: ComponentState }) {
  const { t } = useTranslation('status_page');
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ${STATE_BADGE[state]}`}>
      {t(`state_${state}`)}
    </span>
  );
}

/** One component: its state now, its uptime over the window and one bar per day (oldest first). */
function ComponentRow({ status, windowDays }: { status: ComponentStatus; windowDays: number }) {
  const { t } = useTranslation('status_page');
  const format = useFormats();
  const name = t(`component_${status.component}`);
  return (
    <li className="flex flex-col gap-2 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium text-slate-900">{name}</h3>
        <StateBadge state={status.state} />
      </div>
      <ol aria-label={t('uptime_bars_label', { component: name })} className="flex h-8 items-stretch gap-px">
        {status.days.map((day) => {
          const summary = t('day_summary', {
            date: format.day(day.date),
            percent: format.percent(day.uptime_percent),
            state: t(`state_${day.worst_state}`),
          });
          return (
            <li
              key={day.date}
              title={summary}
              aria-label={summary}
              className={`min-w-0 flex-1 rounded-sm ${STATE_BAR[day.worst_state]}`}
            />
          );
        })}
      </ol>
      <div className="flex justify-between text-xs text-slate-500">
        <span>{t('days_ago', { days: windowDays })}</span>
        <span>{t('uptime', { percent: format.percent(status.uptime_percent), days: windowDays })}</span>
        <span>{t('today')}</span>
      </div>
    </li>
  );
}

/**
 * An incident with its description and its timeline of updates, newest first, in English for an
 * English reader where the operators wrote it so. One announced ahead says when it is scheduled.
 */
function IncidentCard({
  incident: asServed,
  collapsed,
  now,
}: {
  incident: IncidentView;
  collapsed: boolean;
  now: number;
}) {
  const { t, i18n } = useTranslation('status_page');
  const incident = incidentInLanguage(asServed, i18n.language);
  const format = useFormats();
  const components = incident.components.length
    ? incident.components.map((c: StatusComponent) => t(`component_${c}`)).join(', ')
    : t('whole_service');
  const headingId = `status-incident-${incident.id}`;
  const timeline = (
    <ol aria-label={t('timeline_label', { title: incident.title })} className="flex flex-col gap-3">
      {[...incident.updates].reverse().map((update, index) => (
        <li key={index} className="border-l-2 border-slate-200 pl-3">
          <p className="text-sm">
            <span className="font-semibold text-slate-900">{t(`incidents:status_${update.status}`)}</span>
            <span className="text-slate-500"> · {format.time(update.created_at)}</span>
          </p>
          {update.text && <Markdown text={update.text} className="text-sm leading-relaxed text-slate-700" />}
        </li>
      ))}
    </ol>
  );
  return (
    <article aria-labelledby={headingId} className={`${cardClass} flex flex-col gap-3`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-base font-semibold text-slate-900">
          {incident.title}
        </h3>
        <span className="text-sm text-slate-600">
          {t(`incidents:severity_${incident.severity}`)} · {t(`incidents:status_${incident.status}`)}
        </span>
      </div>
      <p className="text-sm text-slate-500">
        {t('affects', { components })} ·{' '}
        {t(incident.started_at > now ? 'incidents:scheduled' : 'started', {
          time: format.time(incident.started_at),
        })}
        {incident.status === 'resolved' &&
          ` · ${t('resolved_after', {
            time: format.time(incident.resolved_at),
            duration: format.duration(incident.resolved_at - incident.started_at),
          })}`}
      </p>
      {incident.description && (
        <Markdown text={incident.description} className="text-sm leading-relaxed text-slate-700" />
      )}
      {incident.updates.length > 0 &&
        (collapsed ? (
          <details>
            <summary className="cursor-pointer text-sm font-medium text-indigo-700">
              {t('timeline_show', { count: incident.updates.length })}
            </summary>
            <div className="mt-3">{timeline}</div>
          </details>
        ) : (
          timeline
        ))}
    </article>
  );
}

/** The public status page: admin's `GET /api/status/page`, read again every minute. */
export function StatusPage() {
  const { t } = useTranslation('status_page');
  const format = useFormats();
  const page = useStatusPage();
  const data = page.data;
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        title={t('title')}
        subtitle={data ? t('subtitle', { time: format.time(data.generated_at) }) : undefined}
      />
      {page.isPending && <Loading />}
      {page.isError && <ErrorState error={page.error} onRetry={() => void page.refetch()} />}
      {data && (
        <>
          <p
            className={`rounded-xl border px-4 py-3 text-base font-semibold ${OVERALL_BANNER[data.overall]}`}
          >
            {t(`overall_${data.overall}`)}
          </p>
          <section aria-labelledby="status-components" className={cardClass}>
            <h2 id="status-components" className="sr-only">
              {t('components_label')}
            </h2>
            <ul className="flex flex-col divide-y divide-slate-100">
              {data.components.map((status) => (
                <ComponentRow key={status.component} status={status} windowDays={data.window_days} />
              ))}
            </ul>
          </section>
          <section aria-labelledby="status-open" className="flex flex-col gap-3">
            <h2 id="status-open" className="text-lg font-semibold text-slate-900">
              {t('open_title')}
            </h2>
            {data.open_incidents.length === 0 && <EmptyState text={t('open_empty')} />}
            {data.open_incidents.map((incident) => (
              <IncidentCard key={incident.id} incident={incident} collapsed={false} now={data.generated_at} />
            ))}
          </section>
          <section aria-labelledby="status-past" className="flex flex-col gap-3">
            <h2 id="status-past" className="text-lg font-semibold text-slate-900">
              {t('past_title', { days: data.window_days })}
            </h2>
            {data.past_incidents.length === 0 && (
              <EmptyState text={t('past_empty', { days: data.window_days })} />
            )}
            {data.past_incidents.map((incident) => (
              <IncidentCard key={incident.id} incident={incident} collapsed now={data.generated_at} />
            ))}
          </section>
          <p className="text-xs text-slate-500">{t('uptime_rule')}</p>
        </>
      )}
    </div>
  );
}
