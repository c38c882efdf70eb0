import { localizedExceptions, messageLookup, type MessageTables } from '@tollgate/platform';
import { en } from './locales/en';
import { ru } from './locales/ru';
import type { BillingMessageKey } from './message-keys';

export { BILLING_MESSAGE_KEYS, type BillingMessageKey } from './message-keys';

/** One table per language (locales.spec.ts checks they agree). */
export const MESSAGES: MessageTables<BillingMessageKey> = { ru, en };

/** The message in the caller's language, with `{name}` placeholders filled in. */
export const message = messageLookup(MESSAGES);

/** An AppException whose message is the caller-language text of a billing message key. */
export const localizedException = localizedExceptions(MESSAGES);
