import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { LOG_PAGE_DEFAULT_SIZE, LogType } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/query-keys';
import { buttonClass, cardClass } from '../../../ui/styles';
import { InputField, SelectField } from '../../../ui/field';
import { defaultRange, rangeProblem, rangeSeconds, type DayRange } from '../../activity/date-range';
import { exportErrorText, saveBlob } from '../../activity/use-export-logs';
import { useMoney } from '../../currency/use-money';
import { notify } from '../../shell/notify';
import { exportAdminLogs, fetchAdminLogs, type AdminLogFilters } from '../admin-api';
import { PagedTable } from '../../../ui/paged-table';
import { tableDateTime } from '../../../i18n/date-time';

interface Draft {
  range: DayRange;
  type: number;
  username: string;
  token_name: string;
  model_name: string;
  channel: string;
}

const toFilters = (draft: Draft): AdminLogFilters => {
  const { start, end } = rangeSeconds(draft.range);
  return {
    start_timestamp: start,
    end_timestamp: end,
    type: draft.type,
    username: draft.username.trim(),
    token_name: draft.token_name.trim(),
    model_name: draft.model_name.trim(),
    ...(/^\d+$/.test(draft.channel.trim()) ? { channel: Number(draft.channel.trim()) } : {}),
  };
};

/** Every user's usage log with filters (user, key, model, channel, type, a range under 31 days) and CSV export. */
export function LogsScreen() {
  const { t, i18n } = useTranslation('admin');
  const activity = useTranslation('activity');
  const money = useMoney();
  const [draft, setDraft] = useState<Draft>({
    range: defaultRange(),
    type: 0,
    username: '',
    token_name: '',
    model_name: '',
    channel: '',
  });
  const [applied, setApplied] = useState<AdminLogFilters>(() => toFilters(draft));
  const [page, setPage] = useState(1);
  const problem = rangeProblem(draft.range);
  const logs = useQuery({
    queryKey: queryKeys.adminLogPage(applied, page),
    queryFn: () => fetchAdminLogs(applied, page),
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({
    mutationFn: async ({ filters, range }: { filters: AdminLogFilters; range: DayRange }) =>
      saveBlob(
        await exportAdminLogs(filters, {
          currency: money.currency,
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        }),
        `tollgate-logs-${range.start}-${range.end}.csv`,
      ),
    onSuccess: () => notify.success(activity.t('export_done')),
    onError: (error) => notify.destructive(exportErrorText(error, activity.t)),
  });
  /** Shows what the form says; an export takes the same filters, so the file is the table an operator asked for. */
  const apply = (): AdminLogFilters | null => {
    if (problem) return null;
    const filters = toFilters(draft);
    setPage(1);
    setApplied(filters);
    return filters;
  };
  const time = tableDateTime(i18n.language, { withSeconds: true });
  const text = (key: keyof Draft, label: string) => (
    <InputField
      label={label}
      value={draft[key] as string}
      onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
    />
  );
  return (
    <section className={cardClass} aria-labelledby="admin-logs-title">
      <h2 id="admin-logs-title" className="text-lg font-semibold">
        {t('logs_title')}
      </h2>
      <form
        className="mt-3 grid gap-3 md:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <InputField
          label={t('logs_from')}
          type="date"
          value={draft.range.start}
          onChange={(e) => setDraft({ ...draft, range: { ...draft.range, start: e.target.value } })}
        />
        <InputField
          label={t('logs_to')}
          type="date"
          value={draft.range.end}
          onChange={(e) => setDraft({ ...draft, range: { ...draft.range, end: e.target.value } })}
        />
        <SelectField
          label={t('logs_type')}
          value={draft.type}
          onChange={(e) => setDraft({ ...draft, type: Number(e.target.value) })}
        >
          <option value={0}>{t('logs_type_all')}</option>
          {[
            LogType.TopUp,
            LogType.Consume,
            LogType.Manage,
            LogType.System,
            LogType.Error,
            LogType.Refund,
          ].map((type) => (
            <option key={type} value={type}>
              {t(`logs_type_${type}`)}
            </option>
          ))}
        </SelectField>
        {text('username', t('user'))}
        {text('token_name', t('logs_key'))}
        {text('model_name', t('price_model'))}
        {text('channel', t('logs_channel_id'))}
        <div className="flex items-end gap-2">
          <button type="submit" className={buttonClass.primary} disabled={problem !== null}>
            {t('search')}
          </button>
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={exporting.isPending || problem !== null}
            onClick={() => {
              const filters = apply();
              if (filters) exporting.mutate({ filters, range: draft.range });
            }}
          >
            {t('logs_export')}
          </button>
        </div>
        {problem ? (
          <p role="alert" className="text-sm text-red-600 md:col-span-4">
            {t(`logs_range_${problem}`)}
          </p>
        ) : null}
      </form>
      <PagedTable
        query={logs}
        headers={[
          t('logs_time'),
          t('user'),
          t('logs_type'),
          t('logs_key'),
          t('price_model'),
          t('logs_channel_id'),
          t('logs_tokens'),
          t('logs_quota'),
        ]}
        rowKey={(item) => item.id}
        row={(item) => (
          <tr className="border-t border-slate-100" data-testid="admin-log-row">
            <td className="px-2 py-2 whitespace-nowrap">{time.format(new Date(item.created_at * 1000))}</td>
            <td className="px-2 py-2">{item.username}</td>
            <td className="px-2 py-2">{t(`logs_type_${item.type}`)}</td>
            <td className="px-2 py-2">{item.token_name}</td>
            <td className="px-2 py-2">{item.model_name}</td>
            <td className="px-2 py-2">{item.channel ?? ''}</td>
            <td className="px-2 py-2 whitespace-nowrap">
              {item.prompt_tokens} / {item.completion_tokens}
              {item.cache_write_5m_tokens + item.cache_write_1h_tokens > 0 ? (
                <span className="block text-xs text-slate-500" data-testid="admin-log-cache-writes">
                  {t('logs_cache_writes', {
                    minutes: item.cache_write_5m_tokens,
                    hour: item.cache_write_1h_tokens,
                  })}
                </span>
              ) : null}
            </td>
            <td className="px-2 py-2 whitespace-nowrap">{money.formatQuota(item.quota)}</td>
          </tr>
        )}
        empty={t('logs_empty')}
        page={page}
        pageSize={LOG_PAGE_DEFAULT_SIZE}
        onPage={setPage}
      />
    </section>
  );
}
