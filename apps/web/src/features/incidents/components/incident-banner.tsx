import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES } from '../../../lib/routes';
import { LazyMarkdown } from '../../../ui/lazy-markdown';
import { NoticeBanner, useVisibleNotice } from './notice-banner';
import { dismissIncident, incidentNoticeKey, readDismissedIncidents } from '../dismissed-incidents';
import { type Incident } from '../incidents-api';
import { latestIncidentText } from '../latest-incident-text';
import { incidentInLanguage } from '../texts-in-language';
import { useOpenIncidents } from '../use-open-incidents';
import { intlLocale } from '../../../i18n/language';

const SEVERITY_CLASS: Record<Incident['severity'], string> = {
  minor: 'border-amber-200 bg-amber-50 text-amber-900',
  major: 'border-orange-300 bg-orange-50 text-orange-900',
  critical: 'border-red-300 bg-red-50 text-red-900',
};

/**
 * The administrators' notice, then SPEC §1 incident notices: each open incident from admin's public
 * list, until it is resolved or the reader dismisses it. When a list cannot be read nothing is shown
 * for it: no incident is invented. One announced ahead (works planned for later) says when it starts,
 * not a status it does not have yet. Texts are in English for an English reader where written so.
 */
export function IncidentBanner({ className = '' }: { className?: string }) {
  const { t, i18n } = useTranslation('incidents');
  const incidents = useOpenIncidents();
  const [dismissed, setDismissed] = useState(readDismissedIncidents);
  const shown = (incidents.data ?? [])
    .filter((incident) => !dismissed.includes(incidentNoticeKey(incident)))
    .map((incident) => incidentInLanguage(incident, i18n.language));
  const notice = useVisibleNotice();
  if (shown.length === 0 && notice === null) return null;
  const dateTime = new Intl.DateTimeFormat(intlLocale(i18n.language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <div className={`flex flex-col gap-2 ${className}`}>
      {notice ? <NoticeBanner notice={notice} /> : null}
      {shown.length > 0 ? (
        <section aria-label={t('banner_label')} className="flex flex-col gap-2">
          {shown.map((incident) => {
            const latest = latestIncidentText(incident);
            const startsAt = new Date(incident.started_at * 1000);
            return (
              <article
                key={incident.id}
                aria-labelledby={`incident-${incident.id}`}
                className={`flex items-start justify-between gap-3 rounded-lg border px-4 py-3 text-sm ${SEVERITY_CLASS[incident.severity]}`}
              >
                <div className="min-w-0">
                  <p className="font-semibold" id={`incident-${incident.id}`}>
                    {t(`severity_${incident.severity}`)}: {incident.title}
                  </p>
                  <p className="text-xs opacity-80">
                    {startsAt.getTime() > Date.now()
                      ? t('scheduled', { time: dateTime.format(startsAt) })
                      : `${t(`status_${incident.status}`)} · ${t('started', { time: dateTime.format(startsAt) })}`}{' '}
                    ·{' '}
                    {latest.updatedAt !== null &&
                      `${t('updated', { time: dateTime.format(new Date(latest.updatedAt * 1000)) })} · `}
                    <Link to={ROUTES.status} className="underline hover:opacity-80">
                      {t('status_page_link')}
                    </Link>
                  </p>
                  {latest.text && (
                    <div className="mt-1 line-clamp-3">
                      <LazyMarkdown text={latest.text} />
                    </div>
                  )}
                </div>
                <button
                  type="button"
                  className="shrink-0 rounded px-2 py-1 text-xs font-medium underline hover:opacity-80"
                  aria-label={t('dismiss_incident', { title: incident.title })}
                  onClick={() => setDismissed(dismissIncident(incidentNoticeKey(incident)))}
                >
                  {t('dismiss')}
                </button>
              </article>
            );
          })}
        </section>
      ) : null}
    </div>
  );
}
