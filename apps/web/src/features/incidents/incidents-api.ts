import { useQuery } from '@tanstack/react-query';
import { pageSchema, type Page } from '@tollgate/contracts';
import { z } from 'zod';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export const INCIDENT_SEVERITIES = ['minor', 'major', 'critical'] as const;

/** One incident exactly as admin's `GET /api/incident/` serves it (its `IncidentView`). */
export const incidentSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  /** Markdown. */
  description: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  severity: z.enum(INCIDENT_SEVERITIES),
  /** Epoch seconds. */
  started_at: z.number().int(),
  /** Epoch seconds; 0 while the incident is open. */
  resolved_at: z.number().int(),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type Incident = z.infer<typeof incidentSchema>;

const incidentPageSchema = pageSchema(incidentSchema);

/** Admin's newest incidents come first; an open one is always among the latest. */
const RECENT_INCIDENTS = 20;
const MINUTE = 60_000;

/** `GET /api/incident/`: the latest incidents, newest start first (public). */
export async function fetchRecentIncidents(): Promise<Page<Incident>> {
  const data = await api.data<unknown>('GET', '/incident/', { query: { p: 1, page_size: RECENT_INCIDENTS } });
  return incidentPageSchema.parse(data);
}

/** The incidents not yet resolved; read again every few minutes so a notice appears without a reload. */
export function useOpenIncidents() {
  return useQuery({
    queryKey: queryKeys.incidents,
    queryFn: fetchRecentIncidents,
    staleTime: MINUTE,
    refetchInterval: 5 * MINUTE,
    select: (page) => openIncidents(page.items),
  });
}

export const openIncidents = (incidents: Incident[]): Incident[] =>
  incidents.filter((incident) => incident.status !== 'resolved');
