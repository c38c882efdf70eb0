import {
  CHAT_LIST_DEFAULT_PAGE_SIZE,
  chatMessageViewSchema,
  chatModelsSchema,
  chatStreamEventSchema,
  chatViewSchema,
  pageSchema,
  type ChatContent,
  type ChatStreamEvent,
  type ChatView,
  type ChatMessageView,
  type UpdateChat,
} from '@tollgate/contracts';
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import { API_BASE, api } from '../../api/client';
import { ApiError } from '../../api/api-error';
import { readStoredUserId } from '../session/user-id-store';

const chatPageSchema = pageSchema(chatViewSchema);
export type ChatPage = z.infer<typeof chatPageSchema>;

export async function fetchChats(page: number): Promise<ChatPage> {
  const data = await api.data<unknown>('GET', '/chat/', {
    query: { page, page_size: CHAT_LIST_DEFAULT_PAGE_SIZE },
  });
  return chatPageSchema.parse(data);
}

export async function createChat(model?: string): Promise<ChatView> {
  return chatViewSchema.parse(await api.data<unknown>('POST', '/chat', { body: model ? { model } : {} }));
}

export async function updateChat(id: number, changes: UpdateChat): Promise<ChatView> {
  return chatViewSchema.parse(await api.data<unknown>('PUT', `/chat/${id}`, { body: changes }));
}

export async function deleteChat(id: number): Promise<void> {
  await api.send('DELETE', `/chat/${id}`);
}

export async function fetchChat(id: number): Promise<ChatView> {
  return chatViewSchema.parse(await api.data<unknown>('GET', `/chat/${id}`));
}

export async function fetchMessages(id: number): Promise<ChatMessageView[]> {
  return z.array(chatMessageViewSchema).parse(await api.data<unknown>('GET', `/chat/${id}/messages`));
}

export async function fetchChatModels(): Promise<string[]> {
  return chatModelsSchema.parse(await api.data<unknown>('GET', '/chat/models'));
}

/** Asks the server to name the chat from its first exchange. */
export async function fetchTitle(id: number): Promise<string> {
  return z.object({ title: z.string() }).parse(await api.data<unknown>('GET', `/chat/${id}/title`)).title;
}

export type SendBody = { content: ChatContent } | { regenerate: true };

/**
 * Sends a message (or asks to regenerate) and reads the answer's server-sent events as they arrive.
 * A refusal before the answer starts is an ApiError with the server's message and status (402: the
 * balance is too low). Aborting `signal` stops the answer; the server keeps what was generated.
 */
export async function streamMessage(
  chatId: number,
  body: SendBody,
  signal: AbortSignal,
  onEvent: (event: ChatStreamEvent) => void,
): Promise<void> {
  const userId = readStoredUserId();
  const response = await fetch(`${API_BASE}/chat/${chatId}/messages`, {
    method: 'POST',
    credentials: 'include',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      ...(userId !== null ? { 'New-Api-User': String(userId) } : {}),
      'Accept-Language': document.documentElement.lang || 'ru',
    },
    body: JSON.stringify(body),
    signal,
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
    let message = '';
    try {
      message = ((await response.json()) as { message?: string }).message ?? '';
    } catch {
      // not the envelope
    }
    throw new ApiError('http', message, response.status);
  }
  const parser = createParser({
    onEvent: (event) => {
      const parsed = chatStreamEventSchema.safeParse(JSON.parse(event.data));
      if (parsed.success) onEvent(parsed.data);
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}
