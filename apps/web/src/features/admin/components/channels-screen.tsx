import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CHANNEL_TYPES, ChannelStatus, type ChannelView } from '@tollgate/contracts';
import { tableDateTime } from '../../../i18n/date-time';
import { intlLocale } from '../../../i18n/language';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { readAgain } from '../../../api/query-client';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { buttonClass, cardClass, inputClass } from '../../../ui/styles';
import { CheckboxField } from '../../../ui/field';
import { useMoney } from '../../currency/use-money';
import { notify } from '../../shell/notify';
import { PagedTable } from '../../../ui/paged-table';
import {
  ADMIN_CHANNEL_PAGE_SIZE,
  deleteChannel,
  fetchChannels,
  saveChannel,
  setChannelStatus,
  testChannel,
  type ChannelDraft,
  type ChannelListFilter,
} from '../admin-api';
import { useAdminMutation } from '../use-admin-mutation';
import { ChannelFormDialog } from './channel-form-dialog';

/** Type numbers as new-api names them. */
export const CHANNEL_TYPE_LABELS: Record<number, string> = Object.fromEntries(
  Object.entries(CHANNEL_TYPES).map(([name, number]) => [number, name]),
);

/** Channels: status, type, groups, models, priority, weight, last test, usage; test, enable/disable, edit, delete. */
export function ChannelsScreen() {
  const { t, i18n } = useTranslation('admin');
  const money = useMoney();
  const testedAt = tableDateTime(i18n.language);
  const clock = new Intl.DateTimeFormat(intlLocale(i18n.language), { timeStyle: 'short' });
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ChannelView | 'new' | { copyOf: ChannelView } | null>(null);
  const [deleting, setDeleting] = useState<ChannelView | null>(null);
  const [disabling, setDisabling] = useState<ChannelView | null>(null);
  const [draftFilter, setDraftFilter] = useState<ChannelListFilter>({});
  const [filter, setFilter] = useState<ChannelListFilter>({});
  const channels = useQuery({
    queryKey: queryKeys.adminChannelPage(page, filter),
    queryFn: () => fetchChannels(page, filter),
    placeholderData: keepPreviousData,
  });
  const refresh = [queryKeys.adminChannels];
  const save = useAdminMutation({
    mutationFn: ({ id, draft }: { id: number | null; draft: ChannelDraft }) => saveChannel(id, draft),
    refresh,
    success: () => t('channel_saved'),
    onSuccess: () => setEditing(null),
  });
  const toggle = useAdminMutation({
    mutationFn: (channel: ChannelView) =>
      setChannelStatus(
        channel.id,
        channel.status === ChannelStatus.Enabled ? ChannelStatus.ManuallyDisabled : ChannelStatus.Enabled,
      ),
    refresh,
    onSuccess: () => setDisabling(null),
  });
  // A failed test names the channel, so it keeps its own toasts.
  const test = useMutation({
    mutationFn: (channel: ChannelView) => testChannel(channel.id),
    onSuccess: (answer, channel) =>
      notify.success(
        t('channel_test_ok', { name: channel.name, ms: answer.data.time_ms, model: answer.data.model }),
      ),
    onError: (error, channel) =>
      notify.destructive(t('channel_test_failed', { name: channel.name }), {
        description: errorMessage(error, t),
      }),
    onSettled: () => readAgain(queryClient, queryKeys.adminChannels),
  });
  // Tests the page's channels one after another (each answer updates its response time).
  const testAll = useMutation({
    mutationFn: async (list: readonly ChannelView[]) => {
      let passed = 0;
      for (const channel of list) {
        const answer = await testChannel(channel.id).catch(() => null);
        if (answer?.success) passed += 1;
      }
      return { passed, failed: list.length - passed };
    },
    onSuccess: (result) =>
      (result.failed === 0 ? notify.success : notify.destructive)(t('channels_tested', result)),
    onSettled: () => readAgain(queryClient, queryKeys.adminChannels),
  });
  const remove = useAdminMutation({
    mutationFn: (id: number) => deleteChannel(id),
    refresh,
    success: () => t('channel_deleted'),
    onSuccess: () => setDeleting(null),
  });

  return (
    <section className={cardClass} aria-labelledby="admin-channels-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-channels-title" className="text-lg font-semibold">
          {t('channels_title')}
        </h2>
        <div className="flex gap-2">
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={testAll.isPending || !channels.data?.items.length}
            onClick={() => channels.data && testAll.mutate(channels.data.items)}
          >
            {testAll.isPending ? t('channels_testing') : t('channels_test_all')}
          </button>
          <button type="button" className={buttonClass.primary} onClick={() => setEditing('new')}>
            {t('channel_create')}
          </button>
        </div>
      </div>
      <form
        className="mt-3 flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setFilter({ ...draftFilter, keyword: draftFilter.keyword?.trim() || undefined });
        }}
      >
        <input
          className={`${inputClass} w-64`}
          aria-label={t('channels_search')}
          placeholder={t('channels_search')}
          value={draftFilter.keyword ?? ''}
          onChange={(e) => setDraftFilter({ ...draftFilter, keyword: e.target.value })}
        />
        <select
          className={`${inputClass} w-44`}
          aria-label={t('status')}
          value={draftFilter.status ?? ''}
          onChange={(e) =>
            setDraftFilter({
              ...draftFilter,
              status: (e.target.value || undefined) as ChannelListFilter['status'],
            })
          }
        >
          <option value="">{t('users_any_status')}</option>
          <option value="enabled">{t('status_enabled')}</option>
          <option value="disabled">{t('status_disabled')}</option>
        </select>
        <CheckboxField
          checked={draftFilter.tag_mode ?? false}
          onChange={(e) => setDraftFilter({ ...draftFilter, tag_mode: e.target.checked || undefined })}
        >
          {t('channels_by_tag')}
        </CheckboxField>
        <button type="submit" className={buttonClass.secondary}>
          {t('search')}
        </button>
      </form>
      <PagedTable
        query={channels}
        headers={[
          'ID',
          t('channel_name'),
          t('channel_type'),
          t('status'),
          t('group'),
          t('channel_models'),
          t('channel_priority_weight'),
          t('channel_response_time'),
          t('used'),
          '',
        ]}
        rowKey={(channel) => channel.id}
        row={(channel) => (
          <tr className="border-t border-slate-100 align-top" data-testid="admin-channel-row">
            <td className="px-2 py-2 text-slate-500">{channel.id}</td>
            <td className="px-2 py-2 font-medium">
              {channel.name}
              {channel.tag ? (
                <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
                  {channel.tag}
                </span>
              ) : null}
            </td>
            <td className="px-2 py-2">{CHANNEL_TYPE_LABELS[channel.type] ?? channel.type}</td>
            <td className="px-2 py-2">
              {t(`channel_status_${channel.status}`)}
              {channel.status_reason ? (
                <div className="text-xs text-slate-500">{channel.status_reason}</div>
              ) : null}
              {channel.breaker ? (
                <div className="text-xs font-medium text-amber-700" data-testid="admin-channel-breaker">
                  {channel.breaker.state === 'open' && channel.breaker.until !== null
                    ? t('channel_breaker_open', {
                        time: clock.format(new Date(channel.breaker.until * 1000)),
                      })
                    : t('channel_breaker_half_open')}
                </div>
              ) : null}
            </td>
            <td className="px-2 py-2">{channel.group}</td>
            <td className="max-w-[16rem] px-2 py-2 break-words text-xs">{channel.models}</td>
            <td className="px-2 py-2">
              {channel.priority} / {channel.weight}
            </td>
            <td className="px-2 py-2">
              {channel.test_time > 0 && channel.test_error !== null ? (
                <span className="text-xs text-red-600" data-testid="admin-channel-test-error">
                  {t('channel_test_error', {
                    time: testedAt.format(new Date(channel.test_time * 1000)),
                    error: channel.test_error,
                  })}
                </span>
              ) : channel.test_time > 0 ? (
                `${channel.response_time} ms`
              ) : (
                '—'
              )}
            </td>
            <td className="px-2 py-2 whitespace-nowrap">{money.formatQuota(channel.used_quota)}</td>
            <td className="px-2 py-2">
              <div className="flex flex-wrap justify-end gap-1">
                <button
                  type="button"
                  className={buttonClass.ghost}
                  disabled={test.isPending}
                  onClick={() => test.mutate(channel)}
                >
                  {t('channel_test')}
                </button>
                <button
                  type="button"
                  className={buttonClass.ghost}
                  disabled={toggle.isPending}
                  onClick={() =>
                    channel.status === ChannelStatus.Enabled ? setDisabling(channel) : toggle.mutate(channel)
                  }
                >
                  {channel.status === ChannelStatus.Enabled ? t('disable') : t('enable')}
                </button>
                <button type="button" className={buttonClass.ghost} onClick={() => setEditing(channel)}>
                  {t('edit')}
                </button>
                <button
                  type="button"
                  className={buttonClass.ghost}
                  aria-label={t('channel_copy', { name: channel.name })}
                  onClick={() => setEditing({ copyOf: channel })}
                >
                  {t('channel_copy_short')}
                </button>
                <button
                  type="button"
                  className={buttonClass.ghost}
                  aria-label={t('channel_delete', { name: channel.name })}
                  onClick={() => setDeleting(channel)}
                >
                  {t('delete')}
                </button>
              </div>
            </td>
          </tr>
        )}
        empty={t('channels_empty')}
        page={page}
        pageSize={ADMIN_CHANNEL_PAGE_SIZE}
        onPage={setPage}
      />
      {editing !== null ? (
        <ChannelFormDialog
          channel={editing === 'new' || 'copyOf' in editing ? null : editing}
          copyOf={editing !== 'new' && 'copyOf' in editing ? editing.copyOf : null}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSave={(draft) =>
            save.mutate({ id: editing === 'new' || 'copyOf' in editing ? null : editing.id, draft })
          }
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('channel_delete_title')}
        description={t('channel_delete_description', { name: deleting?.name ?? '' })}
        confirmLabel={t('delete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
      <ConfirmDialog
        open={disabling !== null}
        onOpenChange={(open) => !open && setDisabling(null)}
        title={t('channel_disable_title')}
        description={t('channel_disable_description', { name: disabling?.name ?? '' })}
        confirmLabel={t('disable')}
        busy={toggle.isPending}
        onConfirm={() => disabling && toggle.mutate(disabling)}
      />
    </section>
  );
}
