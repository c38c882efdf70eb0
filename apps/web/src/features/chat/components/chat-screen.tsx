import { useParams } from 'react-router-dom';
import { ChatList } from './chat-list';
import { Conversation } from './conversation';
import { EmptyConversation } from './empty-conversation';

/**
 * `/dashboard/chat` and `/dashboard/chat/:id`. Wide screens show the list beside the conversation;
 * phones show the list alone at /dashboard/chat and the conversation alone at /dashboard/chat/:id.
 * On a wide screen it fills what the dashboard's column leaves below any incident notice, so the
 * message box stays on the screen (a fixed screen height pushed it below the fold under a notice).
 */
export function ChatScreen() {
  const { id } = useParams();
  const chatId = id !== undefined && /^[1-9]\d{0,9}$/.test(id) ? Number(id) : undefined;
  const open = chatId !== undefined;
  return (
    <div data-testid="chat-screen" className="flex h-[calc(100dvh-9rem)] min-h-[28rem] gap-4 md:h-0 md:grow">
      <aside className={`${open ? 'hidden md:flex' : 'flex'} w-full flex-col md:w-64 md:shrink-0`}>
        <ChatList activeId={chatId} />
      </aside>
      <section className={`${open ? 'flex' : 'hidden md:flex'} min-w-0 flex-1 flex-col`}>
        {open ? <Conversation key={chatId} chatId={chatId} /> : <EmptyConversation />}
      </section>
    </div>
  );
}
