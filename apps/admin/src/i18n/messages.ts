import { localizedExceptions, messageLookup, type MessageTables } from '@tollgate/platform';
import { en } from './locales/en';
import { ru } from './locales/ru';
import type { AdminMessageKey } from './message-keys';

export { ADMIN_MESSAGE_KEYS, type AdminMessageKey } from './message-keys';

/** One table per language (locales.spec.ts checks they agree). */
export const MESSAGES: MessageTables<AdminMessageKey> = { ru, en };

/** The message in the caller's language, with `{name}` placeholders filled in. */
export const message = messageLookup(MESSAGES);

/** An AppException whose message is the caller-language text of an admin message key. */
export const localizedException = localizedExceptions(MESSAGES);
