import { useQueryClient } from '@tanstack/react-query';
import {
  parseChatMessageMetadata,
  type ChatContent,
  type ChatMessageView,
  type ChatStreamEvent,
} from '@tollgate/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { readAgain } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import { retryDelayMs, shouldRetry } from '../../api/retry-policy';
import { notify } from '../shell/notify';
import { fetchTitle, streamMessage, type SendBody } from './chat-api';
import { sendFailureNotice } from './chat-failure';
import { textOfContent } from './message-text';

/** The answer being streamed: the message it answers (shown at once) and the text so far. */
export interface StreamingAnswer {
  question?: ChatContent;
  text: string;
}

/** The server stores a stopped answer once it sees the browser leave: look again shortly after. */
const STOPPED_REFETCH_MS = [400, 1500];
/**
 * Its cost comes from billing's record of the call, which may come later than that (the usage event
 * goes through Kafka on the distributed platform): one more look, only while the cost is still unknown.
 */
const COST_PENDING_REFETCH_MS = 4000;

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Whether the stored answer `id` is missing or shows no cost yet. */
function costUnknown(messages: ChatMessageView[] | undefined, id: number): boolean {
  const answer = messages?.find((message) => message.id === id);
  return answer === undefined || typeof parseChatMessageMetadata(answer.metadata).quota !== 'number';
}

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

  /** Whether the server kept a question refused before its answer started: it is the last stored message. */
  const isLastQuestion = useCallback(
    (content: ChatContent): boolean => {
      const last = queryClient.getQueryData<ChatMessageView[]>(queryKeys.chatMessages(chatId ?? 0))?.at(-1);
      return last?.role === 'user' && textOfContent(last.content) === textOfContent(content);
    },
    [chatId, queryClient],
  );
  const questionKept = useCallback(
    async (content: ChatContent): Promise<boolean> => {
      await queryClient.refetchQueries({ queryKey: queryKeys.chatMessages(chatId ?? 0), exact: true });
      return isLastQuestion(content);
    },
    [chatId, queryClient, isLastQuestion],
  );

  /** Resolves to whether the server kept the message (false: refused before storing it, e.g. a model gone). */
  const run = useCallback(
    async (body: SendBody): Promise<boolean> => {
      if (chatId === undefined || controller.current) return false;
      const abort = new AbortController();
      controller.current = abort;
      const key = queryKeys.chatMessages(chatId);
      // A refetch still due from the previous answer would bring back what this one replaces.
      for (const timer of lateRefetches.current) clearTimeout(timer);
      lateRefetches.current = [];
      await queryClient.cancelQueries({ queryKey: key });
      // What is sent: a retry after the question was stored regenerates rather than sends it twice.
      let attempt: SendBody = body;
      const regenerating = () => 'regenerate' in attempt;
      const before = queryClient.getQueryData<ChatMessageView[]>(key) ?? [];
      const firstAnswer = !before.some((message) => message.role === 'assistant');
      setNeedsTopUp(false);
      setAnswer({ question: 'content' in body ? body.content : undefined, text: '' });
      let started = false;
      let answerId: number | undefined;
      let refusal: unknown;
      const onEvent = (event: ChatStreamEvent) => {
        if (event.type === 'start') {
          started = true;
          answerId = event.assistant_message_id;
          // Regenerating replaces what followed the question; a new question goes at the end.
          queryClient.setQueryData<ChatMessageView[]>(key, (old = []) =>
            regenerating()
              ? upToLastQuestion(old)
              : [...old.filter((m) => m.id !== event.user_message.id), event.user_message],
          );
          setAnswer({ text: '' });
        } else if (event.type === 'delta') {
          setAnswer((current) => ({ text: (current?.text ?? '') + event.content }));
        } else if (event.type === 'done') {
          queryClient.setQueryData<ChatMessageView[]>(key, (old = []) => [
            ...(regenerating() ? upToLastQuestion(old) : old.filter((m) => m.id !== event.message.id)),
            event.message,
          ]);
          setAnswer(null);
        } else {
          // The event's message is relay's, in English: the interface says it in its own words.
          notify.destructive(t('answer_failed'), { description: t('answer_failed_hint') });
        }
      };
      try {
        // SPEC §8: a 502, or a first 500, is tried again after a growing pause (Stop ends the wait).
        for (let retriesDone = 0; ; retriesDone++) {
          try {
            await streamMessage(chatId, attempt, abort.signal, onEvent);
            break;
          } catch (error) {
            const status = isApiError(error) ? error.status : null;
            if (abort.signal.aborted || started || status === null || !shouldRetry(status, retriesDone)) {
              if (!abort.signal.aborted) refusal = error;
              break;
            }
            await pause(retryDelayMs(retriesDone), abort.signal);
            if (abort.signal.aborted) break;
            if ('content' in attempt && (await questionKept(attempt.content))) {
              attempt = { regenerate: true };
              setAnswer({ text: '' }); // the stored question now shows in the list
            }
          }
        }
      } finally {
        controller.current = null;
        setAnswer(null);
        const refresh = () => readAgain(queryClient, key);
        await refresh();
        if (refusal !== undefined) {
          const status = isApiError(refusal) ? refusal.status : null;
          if (status === 402) setNeedsTopUp(true);
          // A model taken out of the chat: the picker shows what is offered now.
          if (status === 404) void readAgain(queryClient, queryKeys.chatModels);
          const chatGone = queryClient.getQueryState(key)?.status === 'error';
          const notice = sendFailureNotice(refusal, t, { chatGone });
          if (notice) notify.destructive(notice.title, { description: notice.description });
        }
        // The answer (and the title below) was paid from the balance: the dashboard shows what is left.
        const refreshBalance = () => readAgain(queryClient, queryKeys.self);
        if (abort.signal.aborted) {
          const lookAgain = () => void Promise.all([refresh(), refreshBalance()]);
          lateRefetches.current = STOPPED_REFETCH_MS.map((ms) => setTimeout(lookAgain, ms));
          const stoppedId = answerId;
          if (stoppedId !== undefined)
            lateRefetches.current.push(
              setTimeout(() => {
                if (costUnknown(queryClient.getQueryData(key), stoppedId)) lookAgain();
              }, COST_PENDING_REFETCH_MS),
            );
        }
        const named =
          firstAnswer && !abort.signal.aborted ? fetchTitle(chatId).catch(() => undefined) : undefined;
        void Promise.resolve(named).then(() =>
          Promise.all([
            readAgain(queryClient, queryKeys.chats),
            readAgain(queryClient, queryKeys.chat(chatId)),
            refreshBalance(),
          ]),
        );
      }
      return started || !('content' in attempt) || isLastQuestion(attempt.content);
    },
    [chatId, queryClient, t, isLastQuestion, questionKept],
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
