import type { AuthMessageKey } from '@tollgate/contracts';
import { messageLookup, type MessageTables } from '@tollgate/platform';
import { en } from './locales/en';
import { ru } from './locales/ru';

/** One table per language, side by side in locales/ (locales.spec.ts checks they agree). */
export const MESSAGES: MessageTables<AuthMessageKey> = { ru, en };

/** The message in the caller's language, with `{name}` placeholders filled in. */
export const message = messageLookup(MESSAGES);
