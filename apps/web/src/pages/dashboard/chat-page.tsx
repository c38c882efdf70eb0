import '../../i18n/namespaces/chat';
import { ChatScreen } from '../../features/chat/components/chat-screen';

export function ChatPage() {
  return <ChatScreen />;
}
