import { NEW_CHAT_TITLE, type ChatView } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';

/**
 * The title to show for a chat: chat stores 'New Chat' (SPEC §3) until its first exchange names
 * it, and that stored word is shown in the interface language ('Новый чат') rather than in English.
 */
export function useChatTitle(): (chat: Pick<ChatView, 'title'>) => string {
  const { t } = useTranslation('chat');
  return (chat) => (chat.title === NEW_CHAT_TITLE ? t('untitled_chat') : chat.title);
}
