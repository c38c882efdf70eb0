import { pageSchema } from '@tollgate/contracts';
import { z } from 'zod';

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

export const incidentPageSchema = pageSchema(incidentSchema);
