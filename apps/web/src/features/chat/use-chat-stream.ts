import { useQueryClient } from '@tanstack/react-query';
import type { ChatContent, ChatMessageView } from '@tollgate/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { errorMessage } from '../../api/error-message';
import { queryKeys } from '../../api/query-keys';
import { notify } from '../shell/notify';
import { fetchTitle, streamMessage, type SendBody } from './chat-api';

/** The answer being streamed: the message it answers (shown at once) and the text so far. */
export interface StreamingAnswer {
  question?: ChatContent;
  text: string;
}

/** The server stores a stopped answer once it sees the browser leave: look again shortly after. */
const STOPPED_REFETCH_MS = [400, 1500];

/** The messages up to and including the last question: what a regenerated answer replaces the rest of. */
function upToLastQuestion(messages: ChatMessageView[]): ChatMessageView[] {
  return messages.slice(0, messages.findLastIndex((m) => m.role === 'user') + 1);
}

/**
 * Sends messages and streams the answers of one chat: the user's message shows at once, the answer
 * grows as text arrives, and the stored messages replace both when it ends. Stop aborts the request
 * (the server keeps and charges only what was generated). A 402 sets `needsTopUp`.
 */
export function useChatStream(chatId: number | undefined) {
  const { t } = useTranslation('chat');
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState<StreamingAnswer | null>(null);
  const [needsTopUp, setNeedsTopUp] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const lateRefetches = useRef<ReturnType<typeof setTimeout>[]>([]);

  useEffect(() => () => controller.current?.abort(), [chatId]);

  const run = useCallback(
    async (body: SendBody) => {
      if (chatId === undefined || controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      const key = queryKeys.chatMessages(chatId);
      // A refetch still due from the previous answer would bring back what this one replaces.
      for (const timer of lateRefetches.current) clearTimeout(timer);
      lateRefetches.current = [];
      await queryClient.cancelQueries({ queryKey: key });
      const regenerating = 'regenerate' in body;
      const before = queryClient.getQueryData<ChatMessageView[]>(key) ?? [];
      const firstAnswer = !before.some((message) => message.role === 'assistant');
      setNeedsTopUp(false);
      setAnswer({ question: 'content' in body ? body.content : undefined, text: '' });
      try {
        await streamMessage(chatId, body, abort.signal, (event) => {
          if (event.type === 'start') {
            // Regenerating replaces what followed the question; a new question goes at the end.
            queryClient.setQueryData<ChatMessageView[]>(key, (old = []) =>
              regenerating
                ? upToLastQuestion(old)
                : [...old.filter((m) => m.id !== event.user_message.id), event.user_message],
            );
            setAnswer({ text: '' });
          } else if (event.type === 'delta') {
            setAnswer((current) => ({ text: (current?.text ?? '') + event.content }));
          } else if (event.type === 'done') {
            queryClient.setQueryData<ChatMessageView[]>(key, (old = []) => [
              ...(regenerating ? upToLastQuestion(old) : old.filter((m) => m.id !== event.message.id)),
              event.message,
            ]);
            setAnswer(null);
          } else {
            notify.destructive(t('answer_failed'), { description: event.message });
          }
        });
      } catch (error) {
        if (!abort.signal.aborted) {
          if (isApiError(error) && error.status === 402) setNeedsTopUp(true);
          notify.destructive(
            isApiError(error) && error.status === 402 ? t('insufficient_balance') : t('send_failed'),
            {
              description: errorMessage(error, t),
            },
          );
        }
      } finally {
        controller.current = null;
        setAnswer(null);
        const refresh = () => queryClient.invalidateQueries({ queryKey: key });
        await refresh();
        if (abort.signal.aborted)
          lateRefetches.current = STOPPED_REFETCH_MS.map((ms) => setTimeout(() => void refresh(), ms));
        const named =
          firstAnswer && !abort.signal.aborted ? fetchTitle(chatId).catch(() => undefined) : undefined;
        void Promise.resolve(named).then(() =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: queryKeys.chats }),
            queryClient.invalidateQueries({ queryKey: queryKeys.chat(chatId) }),
          ]),
        );
      }
    },
    [chatId, queryClient, t],
  );

  return {
    answer,
    streaming: answer !== null,
    needsTopUp,
    send: (content: ChatContent) => run({ content }),
    regenerate: () => run({ regenerate: true }),
    stop: () => controller.current?.abort(),
  };
}
