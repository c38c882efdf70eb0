import { z } from 'zod';

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_SEVERITIES = ['minor', 'major', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];

const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;
const NO_CONTROL_BUT_WHITESPACE = /^[^\p{Cf}\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$/u;
/** Epoch seconds up to the year 9999. */
const MAX_EPOCH_SECONDS = 253_402_300_799;

const fields = {
  title: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
  description: z
    .string({ invalid_type_error: 'must be text' })
    .max(20_000, 'must be at most 20000 characters')
    .regex(NO_CONTROL_BUT_WHITESPACE, 'must not contain control characters'),
  status: z.enum(INCIDENT_STATUSES, {
    errorMap: () => ({ message: `must be one of ${INCIDENT_STATUSES.join(', ')}` }),
  }),
  severity: z.enum(INCIDENT_SEVERITIES, {
    errorMap: () => ({ message: `must be one of ${INCIDENT_SEVERITIES.join(', ')}` }),
  }),
  started_at: z
    .number({ invalid_type_error: 'must be epoch seconds' })
    .int('must be epoch seconds')
    .min(1, 'must be epoch seconds')
    .max(MAX_EPOCH_SECONDS, 'must be epoch seconds'),
};

/** POST /api/incident/: `started_at` defaults to now. */
export const createIncidentRequestSchema = z.object({
  title: fields.title,
  description: fields.description.default(''),
  status: fields.status.default('investigating'),
  severity: fields.severity.default('minor'),
  started_at: fields.started_at.optional(),
});
export type CreateIncidentRequest = z.output<typeof createIncidentRequestSchema>;

/** PUT /api/incident/:id: a partial update. */
export const updateIncidentRequestSchema = createIncidentRequestSchema
  .extend({
    description: fields.description,
    status: fields.status,
    severity: fields.severity,
  })
  .partial();
export type UpdateIncidentRequest = z.output<typeof updateIncidentRequestSchema>;

export interface IncidentView {
  id: number;
  title: string;
  description: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  started_at: number;
  /** 0 while unresolved. */
  resolved_at: number;
  created_time: number;
  updated_time: number;
}
