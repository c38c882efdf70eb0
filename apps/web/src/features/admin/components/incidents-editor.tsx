import { useQuery } from '@tanstack/react-query';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  STATUS_COMPONENTS,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentView,
  type StatusComponent,
  type UpdateIncidentRequest,
} from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog } from '../../../ui/dialog';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass, labelClass } from '../../../ui/styles';
import { CheckboxField, InputField, SelectField } from '../../../ui/field';
import { statusPageQueryKey } from '../../status-page/status-page-api';
import { createIncident, deleteIncident, fetchIncidentsAdmin, updateIncident } from '../admin-api';
import { useAdminMutation } from '../use-admin-mutation';
import { MarkdownField } from './markdown-field';
import { intlLocale } from '../../../i18n/language';

/**
 * Incidents: open one (components, severity, description, its start: now or later for announced
 * work), post updates to its timeline, resolve (when: now or the time given), delete. Every text is
 * Russian, with an optional English one that English readers get instead.
 */
export function IncidentsEditor() {
  const { t, i18n } = useTranslation('admin');
  const incidents = useQuery({ queryKey: queryKeys.adminIncidents, queryFn: fetchIncidentsAdmin });
  const [creating, setCreating] = useState(false);
  const [updating, setUpdating] = useState<IncidentView | null>(null);
  const [deleting, setDeleting] = useState<IncidentView | null>(null);
  // The public notices read the same incidents.
  // The banner's and the status page's readings too: the operator follows the banner's link next.
  const refresh = [queryKeys.adminIncidents, queryKeys.incidents, statusPageQueryKey];
  const create = useAdminMutation({
    mutationFn: createIncident,
    refresh,
    success: () => t('incident_saved'),
    onSuccess: () => setCreating(false),
  });
  const update = useAdminMutation({
    mutationFn: ({ id, changes }: { id: number; changes: IncidentChanges }) => updateIncident(id, changes),
    refresh,
    success: () => t('incident_saved'),
    onSuccess: () => setUpdating(null),
  });
  const remove = useAdminMutation({
    mutationFn: (id: number) => deleteIncident(id),
    refresh,
    onSuccess: () => setDeleting(null),
  });
  const time = new Intl.DateTimeFormat(intlLocale(i18n.language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  return (
    <section className={cardClass} aria-labelledby="admin-incidents-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-incidents-title" className="text-lg font-semibold">
          {t('incidents_title')}
        </h2>
        <button type="button" className={buttonClass.primary} onClick={() => setCreating(true)}>
          {t('incident_open')}
        </button>
      </div>
      {incidents.isPending ? <Loading /> : null}
      {incidents.isError ? (
        <ErrorState error={incidents.error} onRetry={() => void incidents.refetch()} />
      ) : null}
      {incidents.isSuccess && incidents.data.length === 0 ? <EmptyState text={t('incidents_empty')} /> : null}
      <ul className="mt-3 flex flex-col divide-y divide-slate-100">
        {(incidents.data ?? []).map((incident) => (
          <li key={incident.id} className="flex flex-col gap-1 py-3" data-testid="admin-incident-row">
            <div className="flex items-center justify-between gap-3">
              <span className="font-medium">
                {incident.title}{' '}
                <span className="text-xs text-slate-500">
                  {t(`severity_${incident.severity}`)} · {t(`incident_status_${incident.status}`)} ·{' '}
                  {incident.components.join(', ') || t('incident_all_components')}
                </span>
              </span>
              <span className="flex gap-1">
                {/* A resolved incident too: its resolution time or English texts may need correcting. */}
                <button type="button" className={buttonClass.ghost} onClick={() => setUpdating(incident)}>
                  {t('incident_post_update')}
                </button>
                <button
                  type="button"
                  className={buttonClass.ghost}
                  aria-label={t('incident_delete', { title: incident.title })}
                  onClick={() => setDeleting(incident)}
                >
                  {t('delete')}
                </button>
              </span>
            </div>
            <ol className="ml-3 border-l border-slate-200 pl-3 text-xs text-slate-600">
              {incident.updates.map((entry, index) => (
                <li key={`${entry.created_at}-${index}`}>
                  {time.format(new Date(entry.created_at * 1000))} · {t(`incident_status_${entry.status}`)}
                  {entry.text ? ` — ${entry.text}` : ''}
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
      {creating ? (
        <IncidentDialog
          busy={create.isPending}
          onClose={() => setCreating(false)}
          onCreate={(request) => create.mutate(request)}
        />
      ) : null}
      {updating ? (
        <UpdateDialog
          incident={updating}
          busy={update.isPending}
          onClose={() => setUpdating(null)}
          onSave={(changes) => update.mutate({ id: updating.id, changes })}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('incident_delete_title')}
        description={t('incident_delete_description', { title: deleting?.title ?? '' })}
        confirmLabel={t('delete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </section>
  );
}

interface NewIncident {
  title: string;
  title_en: string;
  severity: IncidentSeverity;
  status: IncidentStatus;
  components: StatusComponent[];
  description: string;
  description_en: string;
  started_at?: number;
  resolved_at?: number;
}

/** What an update sends: only what the operator changed (admin keeps the rest). */
type IncidentChanges = Pick<
  UpdateIncidentRequest,
  'status' | 'update' | 'update_en' | 'title_en' | 'description_en' | 'started_at' | 'resolved_at'
>;

/** Epoch seconds as a `datetime-local` value in the operator's time zone, to the minute. */
function localInput(epochSeconds: number): string {
  const at = new Date(epochSeconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` value (the operator's time zone) as epoch seconds; undefined when empty or unreadable. */
function epochSeconds(value: string): number | undefined {
  const at = new Date(value).getTime();
  return value === '' || Number.isNaN(at) ? undefined : Math.floor(at / 1000);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The start (may be later than now: work announced ahead) and, for a resolved incident, the
 * resolution (empty: now). Says so when the resolution comes before the start; admin refuses that too.
 */
function IncidentTimes({
  started,
  resolved,
  showResolved,
  onStarted,
  onResolved,
}: {
  started: string;
  resolved: string;
  showResolved: boolean;
  onStarted: (value: string) => void;
  onResolved: (value: string) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <div className="grid grid-cols-2 gap-3">
      <InputField
        type="datetime-local"
        label={t('incident_started_at')}
        hint={t('incident_started_at_hint')}
        value={started}
        required
        onChange={(e) => onStarted(e.target.value)}
      />
      {showResolved ? (
        <InputField
          type="datetime-local"
          label={t('incident_resolved_at')}
          hint={t('incident_resolved_at_hint')}
          error={resolvedBeforeStart(started, resolved) ? t('incident_resolved_before_start') : undefined}
          value={resolved}
          onChange={(e) => onResolved(e.target.value)}
        />
      ) : null}
    </div>
  );
}

function resolvedBeforeStart(started: string, resolved: string): boolean {
  const start = epochSeconds(started);
  const end = epochSeconds(resolved);
  return start !== undefined && end !== undefined && end < start;
}

function IncidentDialog({
  busy,
  onClose,
  onCreate,
}: {
  busy: boolean;
  onClose: () => void;
  onCreate: (request: NewIncident) => void;
}) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState<NewIncident>({
    title: '',
    title_en: '',
    severity: 'minor',
    status: 'investigating',
    components: [],
    description: '',
    description_en: '',
  });
  // Left as opened, the start is the moment admin receives the incident.
  const [openedAt] = useState(() => localInput(nowSeconds()));
  const [started, setStarted] = useState(openedAt);
  const [resolved, setResolved] = useState('');
  const invalid =
    draft.title.trim() === '' ||
    epochSeconds(started) === undefined ||
    resolvedBeforeStart(started, resolved);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('incident_open')}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (invalid) return;
          const resolvedAt = draft.status === 'resolved' ? epochSeconds(resolved) : undefined;
          onCreate({
            ...draft,
            title: draft.title.trim(),
            ...(started !== openedAt ? { started_at: epochSeconds(started) } : {}),
            ...(resolvedAt !== undefined ? { resolved_at: resolvedAt } : {}),
          });
        }}
      >
        <p className="text-xs text-slate-500">{t('incident_languages_hint')}</p>
        <InputField
          label={t('incident_title')}
          value={draft.title}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, title: e.target.value })}
        />
        <InputField
          label={t('incident_title_en')}
          value={draft.title_en}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, title_en: e.target.value })}
        />
        <div className="grid grid-cols-2 gap-3">
          <SelectField
            label={t('incident_severity')}
            value={draft.severity}
            onChange={(e) => setDraft({ ...draft, severity: e.target.value as IncidentSeverity })}
          >
            {INCIDENT_SEVERITIES.map((severity) => (
              <option key={severity} value={severity}>
                {t(`severity_${severity}`)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label={t('status')}
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.target.value as IncidentStatus })}
          >
            {INCIDENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`incident_status_${status}`)}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className="flex flex-wrap gap-3 text-sm">
          <legend className={labelClass}>{t('incident_components')}</legend>
          {STATUS_COMPONENTS.map((component) => (
            <CheckboxField
              key={component}
              checked={draft.components.includes(component)}
              onChange={(e) =>
                setDraft({
                  ...draft,
                  components: e.target.checked
                    ? [...draft.components, component]
                    : draft.components.filter((c) => c !== component),
                })
              }
            >
              {component}
            </CheckboxField>
          ))}
        </fieldset>
        <IncidentTimes
          started={started}
          resolved={resolved}
          showResolved={draft.status === 'resolved'}
          onStarted={setStarted}
          onResolved={setResolved}
        />
        <MarkdownField
          label={t('incident_description')}
          value={draft.description}
          onChange={(description) => setDraft({ ...draft, description })}
        />
        <MarkdownField
          label={t('incident_description_en')}
          value={draft.description_en}
          onChange={(description_en) => setDraft({ ...draft, description_en })}
        />
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={busy || invalid}>
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function UpdateDialog({
  incident,
  busy,
  onClose,
  onSave,
}: {
  incident: IncidentView;
  busy: boolean;
  onClose: () => void;
  onSave: (changes: IncidentChanges) => void;
}) {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<IncidentStatus>(incident.status);
  const [text, setText] = useState('');
  const [textEn, setTextEn] = useState('');
  const [titleEn, setTitleEn] = useState(incident.title_en ?? '');
  const [descriptionEn, setDescriptionEn] = useState(incident.description_en ?? '');
  const storedStart = localInput(incident.started_at);
  const [started, setStarted] = useState(storedStart);
  const storedResolution = incident.resolved_at ? localInput(incident.resolved_at) : '';
  const [resolved, setResolved] = useState(storedResolution);
  const changes: IncidentChanges = {
    ...(status !== incident.status || text.trim() || textEn.trim() ? { status } : {}),
    ...(text.trim() ? { update: text } : {}),
    ...(textEn.trim() ? { update_en: textEn } : {}),
    ...(titleEn !== (incident.title_en ?? '') ? { title_en: titleEn } : {}),
    ...(descriptionEn !== (incident.description_en ?? '') ? { description_en: descriptionEn } : {}),
    ...(started !== storedStart ? { started_at: epochSeconds(started) } : {}),
    ...(status === 'resolved' && resolved !== storedResolution
      ? { resolved_at: epochSeconds(resolved) }
      : {}),
  };
  const invalid = epochSeconds(started) === undefined || resolvedBeforeStart(started, resolved);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={incident.title}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (!invalid) onSave(changes);
        }}
      >
        <SelectField
          label={t('status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as IncidentStatus)}
        >
          {INCIDENT_STATUSES.map((option) => (
            <option key={option} value={option}>
              {t(`incident_status_${option}`)}
            </option>
          ))}
        </SelectField>
        <MarkdownField label={t('incident_update_text')} value={text} onChange={setText} />
        <MarkdownField label={t('incident_update_text_en')} value={textEn} onChange={setTextEn} />
        <IncidentTimes
          started={started}
          resolved={resolved}
          showResolved={status === 'resolved'}
          onStarted={setStarted}
          onResolved={setResolved}
        />
        <InputField
          label={t('incident_title_en')}
          value={titleEn}
          maxLength={200}
          onChange={(e) => setTitleEn(e.target.value)}
        />
        <MarkdownField
          label={t('incident_description_en')}
          value={descriptionEn}
          onChange={setDescriptionEn}
        />
        <div className="flex justify-end">
          <button
            type="submit"
            className={buttonClass.primary}
            disabled={busy || invalid || Object.keys(changes).length === 0}
          >
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
