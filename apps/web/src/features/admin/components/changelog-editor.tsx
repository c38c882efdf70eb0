import type { CreateVersionRequest, VersionView } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '../../../api/query-keys';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog } from '../../../ui/dialog';
import { EmptyState, ErrorState, Loading } from '../../../ui/query-state';
import { buttonClass, cardClass } from '../../../ui/styles';
import { InputField } from '../../../ui/field';
import { formatCalendarDay } from '../../site/calendar-day';
import { useVersions } from '../../site/use-versions';
import { deleteVersion, saveVersion } from '../admin-api';
import { useAdminMutation } from '../use-admin-mutation';
import { MarkdownField } from './markdown-field';

/** The changelog's releases: add, edit (Markdown notes with a preview), delete. */
export function ChangelogEditor() {
  const { t, i18n } = useTranslation('admin');
  const versions = useVersions();
  const [editing, setEditing] = useState<VersionView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<VersionView | null>(null);
  const refresh = [queryKeys.versions];
  const save = useAdminMutation({
    mutationFn: ({ id, draft }: { id: number | null; draft: CreateVersionRequest }) => saveVersion(id, draft),
    refresh,
    success: () => t('version_saved'),
    onSuccess: () => setEditing(null),
  });
  const remove = useAdminMutation({
    mutationFn: (id: number) => deleteVersion(id),
    refresh,
    onSuccess: () => setDeleting(null),
  });
  const items = versions.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className={cardClass} aria-labelledby="admin-changelog-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="admin-changelog-title" className="text-lg font-semibold">
          {t('changelog_title')}
        </h2>
        <button type="button" className={buttonClass.primary} onClick={() => setEditing('new')}>
          {t('version_add')}
        </button>
      </div>
      {versions.isPending ? <Loading /> : null}
      {versions.isError ? (
        <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />
      ) : null}
      {versions.isSuccess && items.length === 0 ? <EmptyState text={t('versions_empty')} /> : null}
      <ul className="mt-3 flex flex-col divide-y divide-slate-100">
        {items.map((version) => (
          <li
            key={version.id}
            className="flex items-center justify-between gap-3 py-2"
            data-testid="admin-version-row"
          >
            <span>
              <span className="font-mono font-medium">{version.version}</span> · {version.title}{' '}
              <time dateTime={version.release_date} className="text-xs text-slate-500">
                {formatCalendarDay(version.release_date, i18n.language)}
              </time>
            </span>
            <span className="flex gap-1">
              <button type="button" className={buttonClass.ghost} onClick={() => setEditing(version)}>
                {t('edit')}
              </button>
              <button
                type="button"
                className={buttonClass.ghost}
                aria-label={t('version_delete', { version: version.version })}
                onClick={() => setDeleting(version)}
              >
                {t('delete')}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {editing !== null ? (
        <VersionDialog
          version={editing === 'new' ? null : editing}
          busy={save.isPending}
          onClose={() => setEditing(null)}
          onSave={(draft) => save.mutate({ id: editing === 'new' ? null : editing.id, draft })}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('version_delete_title')}
        description={t('version_delete_description', { version: deleting?.version ?? '' })}
        confirmLabel={t('delete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </section>
  );
}

function VersionDialog({
  version,
  busy,
  onClose,
  onSave,
}: {
  version: VersionView | null;
  busy: boolean;
  onClose: () => void;
  onSave: (draft: CreateVersionRequest) => void;
}) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState<CreateVersionRequest>({
    version: version?.version ?? '',
    title: version?.title ?? '',
    content: version?.content ?? '',
    release_date: version?.release_date ?? new Date().toISOString().slice(0, 10),
  });
  const valid =
    /^[\w.+-]{1,32}$/.test(draft.version.trim()) &&
    draft.title.trim() !== '' &&
    /^\d{4}-\d{2}-\d{2}$/.test(draft.release_date);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={version ? version.version : t('version_add')}
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) onSave({ ...draft, version: draft.version.trim(), title: draft.title.trim() });
        }}
      >
        <div className="grid grid-cols-2 gap-3">
          <InputField
            label={t('version_number')}
            value={draft.version}
            onChange={(e) => setDraft({ ...draft, version: e.target.value })}
          />
          <InputField
            label={t('version_date')}
            type="date"
            value={draft.release_date}
            onChange={(e) => setDraft({ ...draft, release_date: e.target.value })}
          />
        </div>
        <InputField
          label={t('version_title')}
          value={draft.title}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, title: e.target.value })}
        />
        <MarkdownField
          label={t('version_notes')}
          value={draft.content}
          onChange={(content) => setDraft({ ...draft, content })}
        />
        <div className="flex justify-end">
          <button type="submit" className={buttonClass.primary} disabled={busy || !valid}>
            {t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
