import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateChat } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '../../api/error-message';
import { readAgain } from '../../api/query-client';
import { queryKeys } from '../../api/query-keys';
import { chatPath } from '../../lib/routes';
import { notify } from '../shell/notify';
import {
  createChat,
  deleteChat,
  fetchChat,
  fetchChatModels,
  fetchChats,
  fetchMessages,
  updateChat,
} from './chat-api';

/** The chat list, a page at a time as the user scrolls (20 a page, SPEC §9). */
export function useChats() {
  return useInfiniteQuery({
    queryKey: queryKeys.chats,
    queryFn: ({ pageParam }) => fetchChats(pageParam),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page * last.page_size < last.total ? last.page + 1 : undefined),
  });
}

export function useChat(chatId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.chat(chatId ?? 0),
    queryFn: () => fetchChat(chatId!),
    enabled: chatId !== undefined,
  });
}

export function useChatMessages(chatId: number | undefined) {
  return useQuery({
    queryKey: queryKeys.chatMessages(chatId ?? 0),
    queryFn: () => fetchMessages(chatId!),
    enabled: chatId !== undefined,
  });
}

export function useChatModels() {
  return useQuery({ queryKey: queryKeys.chatModels, queryFn: fetchChatModels, staleTime: 60_000 });
}

/** New chat, rename and settings, delete: each says how it went and refreshes what it changed. */
export function useChatMutations() {
  const { t } = useTranslation('chat');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const refresh = () => readAgain(queryClient, queryKeys.chats);
  const fail = (text: string) => (error: unknown) =>
    notify.destructive(text, { description: errorMessage(error, t) });

  const create = useMutation({
    mutationFn: (model?: string) => createChat(model),
    onSuccess: (chat) => navigate(chatPath(chat.id)),
    onError: fail(t('create_failed')),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateChat }) => updateChat(id, changes),
    onSuccess: (chat) => queryClient.setQueryData(queryKeys.chat(chat.id), chat),
    onError: fail(t('update_failed')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteChat(id),
    onSuccess: () => notify.success(t('deleted')),
    onError: fail(t('delete_failed')),
    onSettled: refresh,
  });
  return { create, update, remove };
}
