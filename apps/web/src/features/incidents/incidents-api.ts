import type { Page } from '@tollgate/contracts';
import { api } from '../../api/client';
import type { Incident } from './incident-schema';

export type { Incident } from './incident-schema';

/** Admin's newest incidents come first; an open one is always among the latest. */
const RECENT_INCIDENTS = 20;

/** `GET /api/incident/`: the latest incidents, newest start first (public). */
export async function fetchRecentIncidents(): Promise<Page<Incident>> {
  const [data, { incidentPageSchema }] = await Promise.all([
    api.data<unknown>('GET', '/incident/', { query: { p: 1, page_size: RECENT_INCIDENTS } }),
    // The schema (zod and the contracts) comes with the answer, not with the shell's first paint.
    import('./incident-schema'),
  ]);
  return incidentPageSchema.parse(data);
}

export const openIncidents = (incidents: Incident[]): Incident[] =>
  incidents.filter((incident) => incident.status !== 'resolved');
