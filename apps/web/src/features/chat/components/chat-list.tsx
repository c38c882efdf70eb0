import type { ChatView } from '@tollgate/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ROUTES, chatPath } from '../../../lib/routes';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog } from '../../../ui/dialog';
import { buttonClass, inputClass } from '../../../ui/styles';
import { useChatTitle } from '../chat-title';
import { useChatMutations, useChats } from '../use-chat-queries';

/** The user's chats, newest first, 20 at a time ("more" loads the next page); new, rename, delete. */
export function ChatList({ activeId }: { activeId?: number }) {
  const { t } = useTranslation('chat');
  const chats = useChats();
  const titleOf = useChatTitle();
  const { create, update, remove } = useChatMutations();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState<ChatView | null>(null);
  const [title, setTitle] = useState('');
  const [deleting, setDeleting] = useState<ChatView | null>(null);
  const items = chats.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 rounded-xl border border-slate-200 bg-white p-3">
      <button
        type="button"
        className={buttonClass.primary}
        disabled={create.isPending}
        onClick={() => create.mutate(undefined)}
      >
        {t('new_chat')}
      </button>
      <nav aria-label={t('list_label')} className="min-h-0 flex-1 overflow-y-auto">
        {chats.isLoading ? <p className="p-2 text-sm text-slate-500">{t('loading')}</p> : null}
        {chats.isSuccess && items.length === 0 ? (
          <p className="p-2 text-sm text-slate-500">{t('no_chats')}</p>
        ) : null}
        <ul className="flex flex-col gap-1">
          {items.map((chat) => (
            <li key={chat.id} className="group flex items-center gap-1">
              <Link
                to={chatPath(chat.id)}
                aria-current={chat.id === activeId ? 'page' : undefined}
                className={`min-w-0 flex-1 truncate rounded-lg px-3 py-2 text-sm ${
                  chat.id === activeId
                    ? 'bg-indigo-50 font-medium text-indigo-700'
                    : 'text-slate-700 hover:bg-slate-100'
                }`}
                title={titleOf(chat)}
              >
                {titleOf(chat)}
              </Link>
              <button
                type="button"
                className={`${buttonClass.ghost} opacity-60 group-hover:opacity-100`}
                aria-label={t('rename_chat', { title: titleOf(chat) })}
                onClick={() => {
                  setTitle(titleOf(chat));
                  setRenaming(chat);
                }}
              >
                ✎
              </button>
              <button
                type="button"
                className={`${buttonClass.ghost} opacity-60 group-hover:opacity-100`}
                aria-label={t('delete_chat', { title: titleOf(chat) })}
                onClick={() => setDeleting(chat)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        {chats.hasNextPage ? (
          <button
            type="button"
            className={`${buttonClass.ghost} mt-2 w-full`}
            disabled={chats.isFetchingNextPage}
            onClick={() => void chats.fetchNextPage()}
          >
            {t('load_more')}
          </button>
        ) : null}
      </nav>

      <Dialog
        open={renaming !== null}
        onOpenChange={(open) => !open && setRenaming(null)}
        title={t('rename_title')}
      >
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (renaming && title.trim() !== '')
              update.mutate(
                { id: renaming.id, changes: { title: title.trim() } },
                { onSuccess: () => setRenaming(null) },
              );
          }}
        >
          <input
            className={inputClass}
            aria-label={t('chat_title')}
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            autoFocus
          />
          <div className="flex justify-end">
            <button
              type="submit"
              className={buttonClass.primary}
              disabled={update.isPending || title.trim() === ''}
            >
              {t('save')}
            </button>
          </div>
        </form>
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('delete_title')}
        description={t('delete_description', { title: deleting ? titleOf(deleting) : '' })}
        confirmLabel={t('delete_confirm')}
        busy={remove.isPending}
        onConfirm={() => {
          const chat = deleting;
          if (!chat) return;
          remove.mutate(chat.id, {
            onSuccess: () => {
              setDeleting(null);
              if (chat.id === activeId) navigate(ROUTES.dashboardChat);
            },
          });
        }}
      />
    </div>
  );
}
