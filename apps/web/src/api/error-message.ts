import type { TFunction } from 'i18next';
import { isApiError } from './api-error';
import { InvalidUserIdError } from '../features/session/user-id-store';

/** What to tell the user about a failed call: the server's own words, else 'Неизвестная ошибка'. */
export function errorMessage(error: unknown, t: TFunction): string {
  if (error instanceof InvalidUserIdError) return t('common:invalid_user_id');
  if (isApiError(error)) {
    if (error.kind === 'invalid_user_id') return t('common:invalid_user_id');
    if (error.message) return error.message;
  }
  return t('common:unknown_error');
}
