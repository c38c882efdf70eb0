import { queryOptions } from '@tanstack/react-query';
import { systemStatusSchema, type SystemStatus } from '@tollgate/contracts';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { NOTICE_STALE_MS, STATUS_STALE_MS } from '../../api/query-client';

export async function fetchSystemStatus(): Promise<SystemStatus> {
  return systemStatusSchema.parse(await api.data<unknown>('GET', '/status'));
}

/** The notice is free text set by an administrator; an empty string means none. */
export async function fetchNotice(): Promise<string> {
  const envelope = await api.send<string>('GET', '/notice');
  return typeof envelope.data === 'string' ? envelope.data : '';
}

export const statusQuery = queryOptions({
  queryKey: queryKeys.status,
  queryFn: fetchSystemStatus,
  staleTime: STATUS_STALE_MS,
});

export const noticeQuery = queryOptions({
  queryKey: queryKeys.notice,
  queryFn: fetchNotice,
  staleTime: NOTICE_STALE_MS,
});
