import type { ChatContent, ChatMessageView, ChatView } from '@tollgate/contracts';
import type { SecretBox } from '@tollgate/platform';
import type { Message } from '../messages/message.entity';
import type { Chat } from './chat.entity';

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toChatView(chat: Chat, box: SecretBox): ChatView {
  return {
    id: chat.id,
    title: box.open(chat.titleSealed),
    model: chat.model,
    temperature: chat.temperature,
    system_prompt: box.open(chat.systemPromptSealed),
    created_at: seconds(chat.createdAt),
    updated_at: seconds(chat.updatedAt),
  };
}

export const sealContent = (box: SecretBox, content: ChatContent): string =>
  box.seal(JSON.stringify(content));
export const openContent = (box: SecretBox, sealed: string): ChatContent =>
  JSON.parse(box.open(sealed)) as ChatContent;

export function toMessageView(message: Message, box: SecretBox): ChatMessageView {
  return {
    id: message.id,
    chat_id: message.chatId,
    role: message.role,
    content: openContent(box, message.contentSealed),
    metadata: message.metadata,
    created_at: seconds(message.createdAt),
  };
}
