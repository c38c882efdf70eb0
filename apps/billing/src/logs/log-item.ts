import type { LogItem, LogType } from '@tollgate/contracts';
import type { Locale } from '@tollgate/platform';
import { ledgerNoteText } from './ledger-note';
import type { LogRow } from './logs.repository';

/** Admins see which channel served a request; users do not. */
export type LogAudience = 'user' | 'admin';

export function logItemOf(row: LogRow, audience: LogAudience, locale: Locale): LogItem {
  const item: LogItem = {
    id: `${row.source}-${row.id}`,
    created_at: Number(row.created_epoch),
    type: Number(row.type) as LogType,
    user_id: row.user_id,
    username: row.username,
    token_id: row.token_id,
    token_name: row.token_name,
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    cached_tokens: row.cached_tokens,
    cache_write_5m_tokens: row.cache_write_5m_tokens,
    cache_write_1h_tokens: row.cache_write_1h_tokens,
    use_time: Math.floor(row.latency_ms / 1000),
    is_stream: row.is_stream,
    group: row.group,
    request_id: row.request_id,
    // A balance change's note in the reader's language (ledgerNoteText); a request's content as kept.
    content: row.source === 'ledger' ? ledgerNoteText(row.content, locale) : row.content,
  };
  if (audience === 'admin') item.channel = row.channel_id;
  return item;
}
