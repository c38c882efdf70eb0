import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CHANNEL_TYPES, ChannelStatus, type ChannelView } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/error-message';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass } from '../../../ui/styles';
import { useMoney } from '../../currency/use-money';
import { notify } from '../../shell/notify';
import { Pager } from './pager';
import {
  ADMIN_CHANNEL_PAGE_SIZE,
  deleteChannel,
  fetchChannels,
  saveChannel,
  setChannelStatus,
  testChannel,
  type ChannelDraft,
} from '../admin-api';
import { useAdminMutation } from '../use-admin-mutation';
import { ChannelFormDialog } from './channel-form-dialog';

/** Type numbers as new-api names them. */
export const CHANNEL_TYPE_LABELS: Record<number, string> = Object.fromEntries(
  Object.entries(CHANNEL_TYPES).map(([name, number]) => [number, name]),
);

/** Channels: status, type, groups, models, priority, weight, last test, usage; test, enable/disable, edit, delete. */
export function ChannelsScreen() {
  const { t } = useTranslation('admin');
  const money = useMoney();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ChannelView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ChannelView | null>(null);
  const channels = useQuery({
    queryKey: queryKeys.adminChannelPage(page),
    queryFn: () => fetchChannels(page),
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
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminChannels }),
  });
  const remove = useAdminMutation({
    mutationFn: (id: number) => deleteChannel(id),
    refresh,
    success: () => t('channel_deleted'),
    onSuccess: () => setDeleting(null),
  });

  return (
    <section className={cardClass} aria-labelledby="admin-channels-title">
      <div className="flex items-center justify-between gap-3">
        <h2 id="admin-channels-title" className="text-lg font-semibold">
          {t('channels_title')}
        </h2>
        <button type="button" className={buttonClass.primary} onClick={() => setEditing('new')}>
          {t('channel_create')}
        </button>
      </div>
      {channels.isPending ? <Loading /> : null}
      {channels.isError ? (
        <ErrorState error={channels.error} onRetry={() => void channels.refetch()} />
      ) : null}
      {channels.data && channels.data.items.length === 0 ? <EmptyState text={t('channels_empty')} /> : null}
      {channels.data && channels.data.items.length > 0 ? (
        <div className="mt-4 overflow-x-auto">
          <table className="min-w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="px-2 py-2">ID</th>
                <th className="px-2 py-2">{t('channel_name')}</th>
                <th className="px-2 py-2">{t('channel_type')}</th>
                <th className="px-2 py-2">{t('status')}</th>
                <th className="px-2 py-2">{t('group')}</th>
                <th className="px-2 py-2">{t('channel_models')}</th>
                <th className="px-2 py-2">{t('channel_priority_weight')}</th>
                <th className="px-2 py-2">{t('channel_response_time')}</th>
                <th className="px-2 py-2">{t('used')}</th>
                <th className="px-2 py-2" />
              </tr>
            </thead>
            <tbody>
              {channels.data.items.map((channel) => (
                <tr
                  key={channel.id}
                  className="border-t border-slate-100 align-top"
                  data-testid="admin-channel-row"
                >
                  <td className="px-2 py-2 text-slate-500">{channel.id}</td>
                  <td className="px-2 py-2 font-medium">{channel.name}</td>
                  <td className="px-2 py-2">{CHANNEL_TYPE_LABELS[channel.type] ?? channel.type}</td>
                  <td className="px-2 py-2">
                    {t(`channel_status_${channel.status}`)}
                    {channel.status_reason ? (
                      <div className="text-xs text-slate-500">{channel.status_reason}</div>
                    ) : null}
                  </td>
                  <td className="px-2 py-2">{channel.group}</td>
                  <td className="max-w-[16rem] px-2 py-2 break-words text-xs">{channel.models}</td>
                  <td className="px-2 py-2">
                    {channel.priority} / {channel.weight}
                  </td>
                  <td className="px-2 py-2">{channel.test_time > 0 ? `${channel.response_time} ms` : '—'}</td>
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
                        onClick={() => toggle.mutate(channel)}
                      >
                        {channel.status === ChannelStatus.Enabled ? t('disable') : t('enable')}
                      </button>
                      <button type="button" className={buttonClass.ghost} onClick={() => setEditing(channel)}>
                        {t('edit')}
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
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            pageSize={ADMIN_CHANNEL_PAGE_SIZE}
            total={channels.data.total}
            onPage={setPage}
          />
        </div>
      ) : null}
      {editing !== null ? (
        <ChannelFormDialog
          channel={editing === 'new' ? null : editing}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSave={(draft) => save.mutate({ id: editing === 'new' ? null : editing.id, draft })}
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
    </section>
  );
}
