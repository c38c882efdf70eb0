import { statusPageSchema, type StatusPage } from '@tollgate/contracts';
import { api } from '../../api/client';

/** The status page's own key: it is public and shared by every visitor, like `status`. */
export const statusPageQueryKey = ['status-page'] as const;

/** `GET /api/status/page` (public): components, uptime over 90 days, open and past incidents. */
export async function fetchStatusPage(): Promise<StatusPage> {
  return statusPageSchema.parse(await api.data<unknown>('GET', '/status/page'));
}
