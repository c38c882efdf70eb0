import { useQuery } from '@tanstack/react-query';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  STATUS_COMPONENTS,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentView,
  type StatusComponent,
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

/** Incidents: open one (components, severity, description), post updates to its timeline, resolve, delete. */
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
    mutationFn: ({ id, status, text }: { id: number; status: IncidentStatus; text: string }) =>
      updateIncident(id, { status, ...(text.trim() ? { update: text } : {}) }),
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
                {incident.status !== 'resolved' ? (
                  <button type="button" className={buttonClass.ghost} onClick={() => setUpdating(incident)}>
                    {t('incident_post_update')}
                  </button>
                ) : null}
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
          onSave={(status, text) => update.mutate({ id: updating.id, status, text })}
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
  severity: IncidentSeverity;
  status: IncidentStatus;
  components: StatusComponent[];
  description: string;
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
    severity: 'minor',
    status: 'investigating',
    components: [],
    description: '',
  });
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('incident_open')}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.title.trim()) onCreate({ ...draft, title: draft.title.trim() });
        }}
      >
        <InputField
          label={t('incident_title')}
          value={draft.title}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, title: e.target.value })}
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
        <MarkdownField
          label={t('incident_description')}
          value={draft.description}
          onChange={(description) => setDraft({ ...draft, description })}
        />
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={busy || draft.title.trim() === ''}>
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
  onSave: (status: IncidentStatus, text: string) => void;
}) {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<IncidentStatus>(incident.status);
  const [text, setText] = useState('');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={incident.title}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          onSave(status, text);
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
        <div className="flex justify-end">
          <button
            type="submit"
            className={buttonClass.primary}
            disabled={busy || (status === incident.status && text.trim() === '')}
          >
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
