import { localizedExceptions, messageLookup, type MessageTables } from '@tollgate/platform';
import { en } from './locales/en';
import { ru } from './locales/ru';
import type { ChatMessageKey } from './message-keys';

export { CHAT_MESSAGE_KEYS, type ChatMessageKey } from './message-keys';

/** One table per language (locales.spec.ts checks they agree). */
export const MESSAGES: MessageTables<ChatMessageKey> = { ru, en };

/** The message in the caller's language, with `{name}` placeholders filled in. */
export const message = messageLookup(MESSAGES);

/** An AppException whose message is the caller-language text of a chat message key. */
export const localizedException = localizedExceptions(MESSAGES);
