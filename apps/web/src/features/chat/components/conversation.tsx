import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ROUTES } from '../../../lib/routes';
import { buttonClass } from '../../../ui/styles';
import { useChatTitle } from '../chat-title';
import { useChat, useChatMessages, useChatModels, useChatMutations } from '../use-chat-queries';
import { useChatStream } from '../use-chat-stream';
import { usePinnedScroll } from '../use-pinned-scroll';
import { ChatSettingsDialog } from './chat-settings-dialog';
import { Composer } from './composer';
import { MessageBubble } from './message-bubble';

/** One chat: its messages, the answer streaming in, the model picker, settings and the message box. */
export function Conversation({ chatId }: { chatId: number }) {
  const { t } = useTranslation('chat');
  const chat = useChat(chatId);
  const titleOf = useChatTitle();
  const messages = useChatMessages(chatId);
  const models = useChatModels();
  const { update } = useChatMutations();
  const stream = useChatStream(chatId);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const list = messages.data ?? [];
  const scroll = usePinnedScroll<HTMLDivElement>(`${list.length}:${stream.answer?.text.length ?? -1}`);
  const lastAnswer = [...list].reverse().find((m) => m.role === 'assistant');
  const endsOnQuestion = list.at(-1)?.role === 'user';
  const offered = models.data ?? [];
  const model = chat.data?.model ?? offered[0] ?? '';
  // The chat's model may since have been taken out of the chat: shown as such, so the user picks another.
  const modelGone = models.isSuccess && model !== '' && !offered.includes(model);

  if (chat.isError || messages.isError) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 rounded-xl border border-slate-200 bg-white p-8">
        <p className="text-sm text-slate-600">{t('not_found')}</p>
        <Link to={ROUTES.dashboardChat} className={buttonClass.secondary}>
          {t('back_to_chats')}
        </Link>
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-50">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-white px-3 py-2">
        {/* On a phone the title has the first row to itself; the model and settings wrap below it. */}
        <div className="flex min-w-0 basis-full items-center gap-2 md:flex-1 md:basis-0">
          <Link
            to={ROUTES.dashboardChat}
            className={`${buttonClass.ghost} md:hidden`}
            aria-label={t('back_to_chats')}
          >
            ←
          </Link>
          <h1
            className="min-w-0 flex-1 truncate text-base font-semibold text-slate-900"
            data-testid="chat-title"
          >
            {chat.data ? titleOf(chat.data) : '\u00a0'}
          </h1>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-600">
          <span className="sr-only md:not-sr-only">{t('model')}</span>
          <select
            className="max-w-[12rem] rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
            aria-label={t('model')}
            value={model}
            disabled={stream.streaming || offered.length === 0}
            onChange={(event) => update.mutate({ id: chatId, changes: { model: event.target.value } })}
          >
            {offered.length === 0 && !modelGone ? <option value="">{t('no_models')}</option> : null}
            {modelGone ? (
              <option value={model} disabled>
                {t('model_unavailable_option', { model })}
              </option>
            ) : null}
            {offered.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className={buttonClass.ghost}
          onClick={() => setSettingsOpen(true)}
          disabled={!chat.data}
        >
          {t('settings')}
        </button>
      </header>

      <div
        ref={scroll.ref}
        onScroll={scroll.onScroll}
        className="min-h-0 flex-1 overflow-y-auto px-3 py-4 md:px-6"
        data-testid="chat-messages"
      >
        <div className="mx-auto flex max-w-3xl flex-col gap-4">
          {messages.isSuccess && list.length === 0 && !stream.streaming ? (
            <p className="py-12 text-center text-sm text-slate-500">{t('start_hint')}</p>
          ) : null}
          {list.map((message) => (
            <MessageBubble
              key={message.id}
              role={message.role}
              content={message.content}
              metadata={message.metadata}
              onRegenerate={
                message.id === lastAnswer?.id && !stream.streaming && !endsOnQuestion
                  ? stream.regenerate
                  : undefined
              }
            />
          ))}
          {stream.answer?.question !== undefined ? (
            <MessageBubble role="user" content={stream.answer.question} />
          ) : null}
          {stream.answer ? <MessageBubble role="assistant" content={stream.answer.text} streaming /> : null}
          {endsOnQuestion && !stream.streaming ? (
            <div className="flex justify-start">
              <button type="button" className={buttonClass.secondary} onClick={stream.regenerate}>
                {t('answer_again')}
              </button>
            </div>
          ) : null}
          {stream.needsTopUp ? (
            <p
              role="alert"
              className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
            >
              {t('top_up_needed')}{' '}
              <Link to={ROUTES.dashboardPayment} className="font-semibold underline">
                {t('top_up')}
              </Link>
            </p>
          ) : null}
        </div>
      </div>

      <Composer
        streaming={stream.streaming}
        disabled={offered.length === 0 && models.isSuccess}
        onSend={(text) => {
          scroll.pin();
          return stream.send(text);
        }}
        onStop={stream.stop}
      />
      {chat.data ? (
        <ChatSettingsDialog
          key={`${chat.data.id}:${settingsOpen}`}
          chat={chat.data}
          open={settingsOpen}
          onOpenChange={setSettingsOpen}
        />
      ) : null}
    </div>
  );
}
