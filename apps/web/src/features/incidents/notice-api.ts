import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { NOTICE_STALE_MS } from '../../api/query-client';
import { readsEnglish } from './texts-in-language';

/**
 * `GET /api/notice?lang=en` for an English reader: admin answers the English notice when the
 * operators wrote one, else the default (Russian) text; an empty string means no notice.
 */
export async function fetchNoticeIn(language: string): Promise<string> {
  const envelope = await api.send<string>('GET', '/notice', {
    query: readsEnglish(language) ? { lang: 'en' } : {},
  });
  return typeof envelope.data === 'string' ? envelope.data : '';
}

/** Under the notice's key, so saving the notice in the settings refreshes every language's reading. */
export const noticeInLanguageQuery = (language: string) =>
  queryOptions({
    queryKey: [...queryKeys.notice, readsEnglish(language) ? 'en' : 'default'] as const,
    queryFn: () => fetchNoticeIn(language),
    staleTime: NOTICE_STALE_MS,
  });
