import type { IncomingHttpHeaders } from 'node:http';
import { localeOfHeaders, messageLookup, type MessageParams, type MessageTables } from '@tollgate/platform';
import { isModelApiPath } from '../proxy/gateway-errors';
import { en } from './locales/en';
import { ru } from './locales/ru';
import type { GatewayMessageKey } from './message-keys';

export { GATEWAY_MESSAGE_KEYS, type GatewayMessageKey } from './message-keys';

/** One table per language (locales.spec.ts checks they agree). */
export const MESSAGES: MessageTables<GatewayMessageKey> = { ru, en };

export const message = messageLookup(MESSAGES);

/**
 * A refusal of the gateway's own for the call to `path`: in the caller's language on /api (Russian
 * by default), in English on the model APIs, whose clients read their protocol's (OpenAI's) wording.
 */
export function gatewayMessage(
  key: GatewayMessageKey,
  path: string,
  headers: IncomingHttpHeaders,
  params?: MessageParams,
): string {
  return message(key, isModelApiPath(path) ? 'en' : localeOfHeaders(headers), params);
}
