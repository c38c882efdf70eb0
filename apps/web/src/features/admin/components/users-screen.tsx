import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Role, UserStatus, type AdminUserView, type UserAction } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { adminUserPath } from '../../../lib/routes';
import { errorMessage } from '../../../api/error-message';
import { readAgain } from '../../../api/query-client';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog } from '../../../ui/dialog';
import { buttonClass, cardClass, inputClass } from '../../../ui/styles';
import { InputField } from '../../../ui/field';
import { useMoney } from '../../currency/use-money';
import { useAccount } from '../../session/use-account';
import { notify } from '../../shell/notify';
import { PagedTable } from '../../../ui/paged-table';
import { groupLabel, knownGroups } from '../group-label';
import {
  ADMIN_USER_PAGE_SIZE,
  fetchPricingAdmin,
  fetchServedGroups,
  fetchUsers,
  manageUser,
  updateUser,
  type UserChanges,
  type UserListFilter,
} from '../admin-api';

const ROLE_KEYS: Record<number, string> = {
  [Role.User]: 'role_user',
  [Role.Admin]: 'role_admin',
  [Role.Root]: 'role_root',
};

/** The actions that ask first (enabling and removing admin rights do not; deleting has its own dialog). */
type ConfirmedAction = Extract<UserAction, 'disable' | 'promote'>;

/** Users: search, pages of ten (SPEC §9), edit, enable/disable, promote/demote (root), delete. */
export function UsersScreen() {
  const { t } = useTranslation('admin');
  const money = useMoney();
  const me = useAccount();
  const myRole = me.data?.role ?? 0;
  const isRoot = myRole >= Role.Root;
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [search, setSearch] = useState('');
  const [draftFilter, setDraftFilter] = useState<UserListFilter>({});
  const [filter, setFilter] = useState<UserListFilter>({});
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminUserView | null>(null);
  const [deleting, setDeleting] = useState<AdminUserView | null>(null);
  const [confirming, setConfirming] = useState<{ user: AdminUserView; action: ConfirmedAction } | null>(null);
  const users = useQuery({
    queryKey: queryKeys.adminUserPage(search, page, filter),
    queryFn: () => fetchUsers(search, page, filter),
    placeholderData: keepPreviousData,
  });
  const refresh = () => readAgain(queryClient, queryKeys.adminUsers);
  const manage = useMutation({
    mutationFn: ({ id, action }: { id: number; action: UserAction }) => manageUser(id, action),
    onSuccess: (_done, { action }) =>
      notify.success(t(action === 'delete' ? 'user_deleted' : 'user_updated')),
    onError: (error) => notify.destructive(t('action_failed'), { description: errorMessage(error, t) }),
    onSettled: refresh,
  });
  const save = useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UserChanges }) => updateUser(id, changes),
    onSuccess: () => {
      notify.success(t('user_updated'));
      setEditing(null);
    },
    onError: (error) => notify.destructive(t('action_failed'), { description: errorMessage(error, t) }),
    onSettled: refresh,
  });

  return (
    <section className={cardClass} aria-labelledby="admin-users-title">
      <div className="flex flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <h2 id="admin-users-title" className="text-lg font-semibold">
          {t('users_title')}
        </h2>
        <form
          className="flex flex-wrap gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setPage(1);
            setSearch(keyword.trim());
            setFilter({ ...draftFilter, group: draftFilter.group?.trim() || undefined });
          }}
        >
          <input
            className={inputClass}
            aria-label={t('users_search')}
            placeholder={t('users_search_placeholder')}
            value={keyword}
            onChange={(event) => setKeyword(event.target.value)}
          />
          <select
            className={inputClass}
            aria-label={t('role')}
            value={draftFilter.role ?? ''}
            onChange={(e) =>
              setDraftFilter({ ...draftFilter, role: e.target.value ? Number(e.target.value) : undefined })
            }
          >
            <option value="">{t('users_any_role')}</option>
            {[Role.User, Role.Admin, Role.Root].map((role) => (
              <option key={role} value={role}>
                {t(ROLE_KEYS[role]!)}
              </option>
            ))}
          </select>
          <select
            className={inputClass}
            aria-label={t('status')}
            value={draftFilter.status ?? ''}
            onChange={(e) =>
              setDraftFilter({ ...draftFilter, status: e.target.value ? Number(e.target.value) : undefined })
            }
          >
            <option value="">{t('users_any_status')}</option>
            <option value={UserStatus.Enabled}>{t('status_enabled')}</option>
            <option value={UserStatus.Disabled}>{t('status_disabled')}</option>
          </select>
          <input
            className={`${inputClass} w-32`}
            aria-label={t('group')}
            placeholder={t('group')}
            value={draftFilter.group ?? ''}
            onChange={(e) => setDraftFilter({ ...draftFilter, group: e.target.value })}
          />
          <button type="submit" className={buttonClass.secondary}>
            {t('search')}
          </button>
        </form>
      </div>
      <PagedTable
        query={users}
        headers={[
          'ID',
          t('user'),
          t('group'),
          t('role'),
          t('status'),
          t('balance'),
          t('used'),
          t('requests'),
          '',
        ]}
        rowKey={(user) => user.id}
        row={(user) => {
          const enabled = user.status === UserStatus.Enabled;
          const self = user.id === me.data?.id;
          // Auth refuses any change to a user whose role is not below the operator's (root may edit itself).
          const manageable = !self && user.role < myRole;
          return (
            <tr className="border-t border-slate-100" data-testid="admin-user-row">
              <td className="px-2 py-2 text-slate-500">{user.id}</td>
              <td className="px-2 py-2">
                <Link to={adminUserPath(user.id)} className="font-medium text-indigo-600 hover:underline">
                  {user.username}
                </Link>
                <div className="text-xs text-slate-500">{user.display_name || user.email || ''}</div>
              </td>
              <td className="px-2 py-2">{groupLabel(user.group, t)}</td>
              <td className="px-2 py-2">{t(ROLE_KEYS[user.role] ?? 'role_user')}</td>
              <td className="px-2 py-2">{enabled ? t('status_enabled') : t('status_disabled')}</td>
              <td className="px-2 py-2 whitespace-nowrap">{money.formatQuota(user.quota)}</td>
              <td className="px-2 py-2 whitespace-nowrap">{money.formatQuota(user.used_quota)}</td>
              <td className="px-2 py-2">{user.request_count}</td>
              <td className="px-2 py-2">
                <div className="flex flex-wrap justify-end gap-1">
                  {manageable || (self && isRoot) ? (
                    <button type="button" className={buttonClass.ghost} onClick={() => setEditing(user)}>
                      {t('edit')}
                    </button>
                  ) : null}
                  {manageable ? (
                    <button
                      type="button"
                      className={buttonClass.ghost}
                      disabled={manage.isPending}
                      onClick={() =>
                        enabled
                          ? setConfirming({ user, action: 'disable' })
                          : manage.mutate({ id: user.id, action: 'enable' })
                      }
                    >
                      {enabled ? t('disable') : t('enable')}
                    </button>
                  ) : null}
                  {isRoot && manageable ? (
                    <button
                      type="button"
                      className={buttonClass.ghost}
                      disabled={manage.isPending}
                      onClick={() =>
                        user.role >= Role.Admin
                          ? manage.mutate({ id: user.id, action: 'demote' })
                          : setConfirming({ user, action: 'promote' })
                      }
                    >
                      {user.role >= Role.Admin ? t('demote') : t('promote')}
                    </button>
                  ) : null}
                  {manageable ? (
                    <button
                      type="button"
                      className={buttonClass.ghost}
                      aria-label={t('delete_user', { username: user.username })}
                      onClick={() => setDeleting(user)}
                    >
                      {t('delete')}
                    </button>
                  ) : null}
                </div>
              </td>
            </tr>
          );
        }}
        empty={t('users_empty')}
        page={page}
        pageSize={ADMIN_USER_PAGE_SIZE}
        onPage={setPage}
      />

      {editing ? (
        <UserEditDialog
          user={editing}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSave={(changes) => save.mutate({ id: editing.id, changes })}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('delete_user_title')}
        description={t('delete_user_description', { username: deleting?.username ?? '' })}
        confirmLabel={t('delete')}
        busy={manage.isPending}
        onConfirm={() => {
          if (deleting)
            manage.mutate({ id: deleting.id, action: 'delete' }, { onSuccess: () => setDeleting(null) });
        }}
      />
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={confirming ? t(`${confirming.action}_user_title`) : ''}
        description={
          confirming ? t(`${confirming.action}_user_description`, { username: confirming.user.username }) : ''
        }
        confirmLabel={confirming ? t(confirming.action) : ''}
        busy={manage.isPending}
        onConfirm={() => {
          if (confirming)
            manage.mutate(
              { id: confirming.user.id, action: confirming.action },
              { onSuccess: () => setConfirming(null) },
            );
        }}
      />
    </section>
  );
}

interface EditProps {
  user: AdminUserView;
  busy: boolean;
  onClose: () => void;
  onSave: (changes: UserChanges) => void;
}

/** Display name, group and balance (quota units; the money it is worth shown beside it). */
function UserEditDialog({ user, busy, onClose, onSave }: EditProps) {
  const { t } = useTranslation('admin');
  const money = useMoney();
  const [displayName, setDisplayName] = useState(user.display_name);
  const [group, setGroup] = useState(user.group);
  const [quota, setQuota] = useState(String(user.quota));
  const [reason, setReason] = useState('');
  const pricing = useQuery({ queryKey: queryKeys.adminPricing, queryFn: fetchPricingAdmin });
  const served = useQuery({
    queryKey: queryKeys.adminChannelPage(0, { servedGroups: true }),
    queryFn: fetchServedGroups,
  });
  const groups = knownGroups(pricing.data?.groupRatios);
  const chosen = group.trim();
  // A typo would silently make a group no channel serves: say so while the name is new.
  const groupIsNew = pricing.isSuccess && chosen !== '' && !groups.includes(chosen);
  // A known group (vip has a ratio) still cuts the user off when no enabled channel lists it.
  const groupUnserved = !groupIsNew && served.isSuccess && chosen !== '' && !served.data.includes(chosen);
  const quotaValue = /^\d{1,15}$/.test(quota.trim()) ? Number(quota.trim()) : null;
  const quotaChanged = quotaValue !== null && quotaValue !== user.quota;
  const reasonMissing = quotaChanged && reason.trim() === '';
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('edit_user', { username: user.username })}
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (quotaValue === null || reasonMissing) return;
          onSave({
            display_name: displayName.trim(),
            group: group.trim(),
            ...(quotaChanged ? { quota: quotaValue, quota_reason: reason.trim() } : {}),
          });
        }}
      >
        <InputField
          label={t('display_name')}
          value={displayName}
          maxLength={64}
          onChange={(e) => setDisplayName(e.target.value)}
        />
        <InputField
          label={t('group')}
          hint={
            groupIsNew ? t('group_new') : groupUnserved ? t('group_unserved', { group: chosen }) : undefined
          }
          value={group}
          maxLength={64}
          list="admin-user-groups"
          onChange={(e) => setGroup(e.target.value)}
        />
        <datalist id="admin-user-groups">
          {groups.map((name) => (
            <option key={name} value={name}>
              {groupLabel(name, t)}
            </option>
          ))}
        </datalist>
        <InputField
          label={t('balance_quota')}
          hint={
            quotaValue === null
              ? t('quota_invalid')
              : t('quota_worth', { amount: money.formatQuota(quotaValue) })
          }
          inputMode="numeric"
          value={quota}
          onChange={(e) => setQuota(e.target.value)}
          aria-invalid={quotaValue === null}
        />
        {quotaChanged ? (
          <InputField
            label={t('quota_reason')}
            hint={t('quota_reason_hint')}
            value={reason}
            maxLength={500}
            required
            onChange={(e) => setReason(e.target.value)}
          />
        ) : null}
        <div className="flex justify-end">
          <button
            type="submit"
            className={buttonClass.primary}
            disabled={busy || quotaValue === null || reasonMissing}
          >
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
