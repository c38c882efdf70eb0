import type { LogItem, LogType } from '@tollgate/contracts';
import type { CsvCell } from './log-csv';
import type { LogRow } from './logs.repository';

/** Admins see which channel served a request; users do not. */
export type LogAudience = 'user' | 'admin';

export function logItemOf(row: LogRow, audience: LogAudience): LogItem {
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
    use_time: Math.floor(row.latency_ms / 1000),
    is_stream: row.is_stream,
    group: row.group,
    request_id: row.request_id,
    content: row.content,
  };
  if (audience === 'admin') item.channel = row.channel_id;
  return item;
}

interface CsvColumn {
  header: string;
  cell: (item: LogItem) => CsvCell;
}

const USER_COLUMNS: readonly CsvColumn[] = [
  { header: 'created_at', cell: (i) => new Date(i.created_at * 1000).toISOString() },
  { header: 'type', cell: (i) => i.type },
  { header: 'username', cell: (i) => i.username },
  { header: 'token_name', cell: (i) => i.token_name },
  { header: 'model_name', cell: (i) => i.model_name },
  { header: 'quota', cell: (i) => i.quota },
  { header: 'prompt_tokens', cell: (i) => i.prompt_tokens },
  { header: 'completion_tokens', cell: (i) => i.completion_tokens },
  { header: 'cached_tokens', cell: (i) => i.cached_tokens },
  { header: 'use_time', cell: (i) => i.use_time },
  { header: 'is_stream', cell: (i) => i.is_stream },
  { header: 'group', cell: (i) => i.group },
  { header: 'request_id', cell: (i) => i.request_id },
  { header: 'content', cell: (i) => i.content },
];

const ADMIN_COLUMNS: readonly CsvColumn[] = [
  ...USER_COLUMNS.slice(0, 2),
  { header: 'user_id', cell: (i) => i.user_id },
  ...USER_COLUMNS.slice(2),
  { header: 'channel', cell: (i) => i.channel ?? null },
];

export function csvColumns(audience: LogAudience): readonly CsvColumn[] {
  return audience === 'admin' ? ADMIN_COLUMNS : USER_COLUMNS;
}
