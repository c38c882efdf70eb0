import { localizedExceptions } from './localized-exception';
import { messageLookup, type MessageTables } from './message-table';
import { en } from './locales/en';
import { ru } from './locales/ru';

/**
 * The refusals of who may call, answered by the gateway and by every service: no one signed in
 * (401), a role too low (403), a New-Api-User that is not the signed-in user (401).
 */
export const ACCESS_MESSAGE_KEYS = [
  'authentication_required',
  'insufficient_permissions',
  'user_header_mismatch',
] as const;
export type AccessMessageKey = (typeof ACCESS_MESSAGE_KEYS)[number];

/** One table per language (access-messages.spec.ts checks they agree). */
export const ACCESS_MESSAGES: MessageTables<AccessMessageKey> = { ru, en };

export const accessMessage = messageLookup(ACCESS_MESSAGES);
export const accessException = localizedExceptions(ACCESS_MESSAGES);
