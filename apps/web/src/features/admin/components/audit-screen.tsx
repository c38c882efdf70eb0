import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_PAGE_DEFAULT_SIZE, Role, type AuditEntryView } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/query-keys';
import { buttonClass, cardClass } from '../../../ui/styles';
import { InputField, SelectField } from '../../../ui/field';
import { moscowDayEnd, moscowDayStart } from '../../activity/date-range';
import { fetchAudit, type AuditFilters } from '../admin-audit-api';
import { useUserNames } from '../use-user-names';
import { PagedTable } from '../../../ui/paged-table';
import { tableDateTime } from '../../../i18n/date-time';

/** The kinds of object the services audit, for the filter. */
const TARGET_KINDS = [
  'user',
  'channel',
  'model',
  'group',
  'promo',
  'payment',
  'option',
  'version',
  'incident',
];

interface Draft {
  action: string;
  target_kind: string;
  target_id: string;
  actor_id: string;
  from: string;
  to: string;
}

const EMPTY_DRAFT: Draft = { action: '', target_kind: '', target_id: '', actor_id: '', from: '', to: '' };

const toFilters = (draft: Draft): AuditFilters => ({
  action: draft.action.trim() || undefined,
  target_kind: draft.target_kind || undefined,
  target_id: draft.target_id.trim() || undefined,
  actor_id: /^\d+$/.test(draft.actor_id.trim()) ? Number(draft.actor_id.trim()) : undefined,
  start_timestamp: draft.from ? moscowDayStart(draft.from) : undefined,
  end_timestamp: draft.to ? moscowDayEnd(draft.to) : undefined,
});

const shown = (value: unknown): string =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields worth showing: what changed, or everything of a created or deleted object. */
function fieldsOf(entry: AuditEntryView): string[] {
  if (entry.before === null || entry.after === null) {
    return Object.keys(entry.after ?? entry.before ?? {});
  }
  return entry.changed;
}

/** A user the entry names by id alone (billing's balance changes carry no username). */
const unnamedUserId = (entry: AuditEntryView): number | null =>
  entry.target_kind === 'user' && entry.target_name === null && /^\d+$/.test(entry.target_id)
    ? Number(entry.target_id)
    : null;

/** new-api's "manage" log: who changed what, when, with the values before and after (secrets redacted). */
export function AuditScreen() {
  const { t, i18n } = useTranslation('admin');
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const [applied, setApplied] = useState<AuditFilters>({});
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const audit = useQuery({
    queryKey: queryKeys.adminAuditPage(applied, page),
    queryFn: () => fetchAudit(applied, page),
    placeholderData: keepPreviousData,
  });
  const userNames = useUserNames(
    (audit.data?.items ?? []).map(unnamedUserId).filter((id): id is number => id !== null),
  );
  const targetName = (entry: AuditEntryView): string | null => {
    const userId = unnamedUserId(entry);
    return userId === null ? entry.target_name : (userNames.get(userId) ?? null);
  };
  const time = tableDateTime(i18n.language, { withSeconds: true });
  const roleName = (role: number) =>
    role >= Role.Root ? t('role_root') : role >= Role.Admin ? t('role_admin') : t('role_user');
  const field = (key: keyof Draft, label: string, type = 'text') => (
    <InputField
      label={label}
      type={type}
      value={draft[key]}
      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
    />
  );
  return (
    <section className={cardClass} aria-labelledby="admin-audit-title">
      <h2 id="admin-audit-title" className="text-lg font-semibold">
        {t('audit_title')}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{t('audit_hint')}</p>
      <form
        className="mt-3 grid gap-3 md:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setOpen(null);
          setApplied(toFilters(draft));
        }}
      >
        {field('action', t('audit_action'))}
        <SelectField
          label={t('audit_target_kind')}
          value={draft.target_kind}
          onChange={(e) => setDraft({ ...draft, target_kind: e.target.value })}
        >
          <option value="">{t('audit_any')}</option>
          {TARGET_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`audit_kind_${kind}`)}
            </option>
          ))}
        </SelectField>
        {field('target_id', t('audit_target_id'))}
        {field('actor_id', t('audit_actor_id'))}
        {field('from', t('logs_from'), 'date')}
        {field('to', t('logs_to'), 'date')}
        <div className="flex items-end gap-2">
          <button type="submit" className={buttonClass.primary}>
            {t('search')}
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            onClick={() => {
              setDraft(EMPTY_DRAFT);
              setPage(1);
              setApplied({});
            }}
          >
            {t('audit_reset')}
          </button>
        </div>
      </form>
      <PagedTable
        query={audit}
        headers={[
          t('logs_time'),
          t('audit_actor'),
          t('audit_action'),
          t('audit_target'),
          t('audit_changed'),
          '',
        ]}
        rowKey={(entry) => entry.id}
        row={(entry) => (
          <>
            <tr className="border-t border-slate-100" data-testid="audit-row">
              <td className="px-2 py-2 whitespace-nowrap">
                {time.format(new Date(entry.created_at * 1000))}
              </td>
              <td className="px-2 py-2 whitespace-nowrap">
                #{entry.actor_id} · {roleName(entry.actor_role)}
              </td>
              <td className="px-2 py-2 font-mono text-xs">{entry.action}</td>
              <td className="px-2 py-2 whitespace-nowrap">
                {t(`audit_kind_${entry.target_kind}`, { defaultValue: entry.target_kind })}{' '}
                {targetName(entry) === null
                  ? entry.target_id
                  : t('audit_target_named', { name: targetName(entry), id: entry.target_id })}
              </td>
              <td className="px-2 py-2">{entry.changed.join(', ')}</td>
              <td className="px-2 py-2">
                <button
                  type="button"
                  className={buttonClass.secondary}
                  aria-expanded={open === entry.id}
                  onClick={() => setOpen(open === entry.id ? null : entry.id)}
                >
                  {t('audit_details')}
                </button>
              </td>
            </tr>
            {open === entry.id ? (
              <tr className="bg-slate-50 dark:bg-slate-900">
                <td colSpan={6} className="px-2 py-2">
                  <table className="text-xs" aria-label={t('audit_details')}>
                    <thead>
                      <tr>
                        <th className="px-2 py-1">{t('audit_field')}</th>
                        <th className="px-2 py-1">{t('audit_before')}</th>
                        <th className="px-2 py-1">{t('audit_after')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {fieldsOf(entry).map((name) => (
                        <tr key={name}>
                          <td className="px-2 py-1 font-mono">{name}</td>
                          <td className="px-2 py-1 break-all">{shown(entry.before?.[name])}</td>
                          <td className="px-2 py-1 break-all">{shown(entry.after?.[name])}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  <p className="mt-1 text-xs text-slate-500">
                    {t('audit_request', { service: entry.service, request: entry.request_id ?? '—' })}
                  </p>
                </td>
              </tr>
            ) : null}
          </>
        )}
        empty={t('audit_empty')}
        page={page}
        pageSize={AUDIT_PAGE_DEFAULT_SIZE}
        onPage={setPage}
      />
    </section>
  );
}
