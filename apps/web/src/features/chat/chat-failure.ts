import type { TFunction } from 'i18next';
import { isApiError } from '../../api/api-error';
import { errorMessage } from '../../api/error-message';

export interface FailureNotice {
  title: string;
  description: string;
}

/**
 * What to tell the user when a message is refused before its answer starts. The server's words for
 * these refusals are relay's, in English, so each known kind gets the interface's own text; only an
 * unknown refusal shows the server's message. Null: say nothing here (a 401 signs the user out and
 * the session says so; a 402 is said by the conversation's top-up notice, with its link; a 404 for a
 * chat that is gone is said by the screen).
 */
export function sendFailureNotice(
  error: unknown,
  t: TFunction,
  { chatGone }: { chatGone: boolean },
): FailureNotice | null {
  switch (isApiError(error) ? error.status : null) {
    case 401:
    case 402:
      return null;
    case 404:
      return chatGone ? null : { title: t('model_unavailable'), description: t('model_unavailable_hint') };
    case 429:
      return { title: t('rate_limited'), description: t('rate_limited_hint') };
    case 500:
    case 502:
    case 503:
    case 504:
      return { title: t('model_service_failed'), description: t('model_service_failed_hint') };
    default:
      return { title: t('send_failed'), description: errorMessage(error, t) };
  }
}
