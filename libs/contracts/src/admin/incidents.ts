import { z } from 'zod';
import { pageSchema } from '../http/envelope';

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_SEVERITIES = ['minor', 'major', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
/** The parts of the service the public status page reports on. */
export const STATUS_COMPONENTS = ['api', 'chat', 'payments', 'web'] as const;
export type StatusComponent = (typeof STATUS_COMPONENTS)[number];
export const COMPONENT_STATES = ['operational', 'degraded', 'outage'] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** How many updates one incident's timeline keeps; an incident told in more steps is refused. */
export const INCIDENT_MAX_UPDATES = 100;
/** The public status page's look-back: incidents and uptime of the last 90 days. */
export const STATUS_PAGE_DAYS = 90;

const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;
const NO_CONTROL_BUT_WHITESPACE = /^[^\p{Cf}\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$/u;
/** Epoch seconds up to the year 9999. */
const MAX_EPOCH_SECONDS = 253_402_300_799;

const markdownText = z
  .string({ invalid_type_error: 'must be text' })
  .max(20_000, 'must be at most 20000 characters')
  .regex(NO_CONTROL_BUT_WHITESPACE, 'must not contain control characters');

const fields = {
  title: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
  description: markdownText,
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
  /** Affected components, each at most once (sorted in the fixed order). */
  components: z
    .array(
      z.enum(STATUS_COMPONENTS, {
        errorMap: () => ({ message: `must each be one of ${STATUS_COMPONENTS.join(', ')}` }),
      }),
      { invalid_type_error: `must be a list of ${STATUS_COMPONENTS.join(', ')}` },
    )
    .max(STATUS_COMPONENTS.length * 4, 'lists too many components')
    .transform((list) => STATUS_COMPONENTS.filter((component) => list.includes(component))),
  /** The text of a timeline update (Markdown); blank means the update is the status change alone. */
  update: markdownText.transform((text) => text.trim()),
  /** An English title beside the default (Russian) one; blank means none. */
  title_en: z
    .string({ invalid_type_error: 'must be text' })
    .trim()
    .max(200, 'must be at most 200 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
};

/**
 * POST /api/incident/: `started_at` defaults to now (a future one announces planned work).
 * The texts are in the default language, Russian, which every reader gets unless an English one
 * exists (`title_en`, `description_en`, `update_en`, blank meaning none) and the interface is
 * English. The incident's timeline starts with one update
 * in its first status, carrying `update` when given. `resolved_at` (an incident logged after the
 * fact) is taken only with the status `resolved`, not before `started_at`; resolving without it
 * stamps the current time.
 */
export const createIncidentRequestSchema = z.object({
  title: fields.title,
  description: fields.description.default(''),
  status: fields.status.default('investigating'),
  severity: fields.severity.default('minor'),
  started_at: fields.started_at.optional(),
  resolved_at: fields.started_at.optional(),
  components: fields.components.default([]),
  update: fields.update.optional(),
  title_en: fields.title_en.default(''),
  description_en: fields.description.transform((text) => text.trim()).default(''),
  update_en: fields.update.optional(),
});
export type CreateIncidentRequest = z.output<typeof createIncidentRequestSchema>;

/**
 * PUT /api/incident/:id: a partial update. A new status or an `update` / `update_en` text adds an
 * update to the timeline (in the new status, or the current one when only text is given).
 */
export const updateIncidentRequestSchema = createIncidentRequestSchema
  .extend({
    description: fields.description,
    status: fields.status,
    severity: fields.severity,
    components: fields.components,
    title_en: fields.title_en,
    description_en: fields.description.transform((text) => text.trim()),
  })
  .partial();
export type UpdateIncidentRequest = z.output<typeof updateIncidentRequestSchema>;

/** One step of an incident's timeline. */
export const incidentUpdateSchema = z.object({
  status: z.enum(INCIDENT_STATUSES),
  /** Markdown; may be empty when the update is a status change alone. */
  text: z.string(),
  /** The English text, present only when the operators wrote one. */
  text_en: z.string().optional(),
  /** Epoch seconds. */
  created_at: z.number().int(),
});
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

/** One incident as admin's `GET /api/incident/` serves it. */
export const incidentViewSchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  /** Markdown. */
  description: z.string(),
  /** The English title and description, present only when the operators wrote them. */
  title_en: z.string().optional(),
  description_en: z.string().optional(),
  status: z.enum(INCIDENT_STATUSES),
  severity: z.enum(INCIDENT_SEVERITIES),
  components: z.array(z.enum(STATUS_COMPONENTS)),
  /** Oldest first. */
  updates: z.array(incidentUpdateSchema),
  /** Epoch seconds; later than now for work announced ahead. */
  started_at: z.number().int(),
  /** Epoch seconds; 0 while unresolved. */
  resolved_at: z.number().int(),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type IncidentView = z.infer<typeof incidentViewSchema>;

export const incidentPageSchema = pageSchema(incidentViewSchema);

/** One Moscow calendar day of a component's history. */
export const statusDaySchema = z.object({
  /** `YYYY-MM-DD`, Moscow time. */
  date: z.string(),
  /** Percent of the day's elapsed time without an outage, rounded down to 3 decimals. */
  uptime_percent: z.number().min(0).max(100),
  /** The worst state any incident gave the component that day. */
  worst_state: z.enum(COMPONENT_STATES),
});
export type StatusDay = z.infer<typeof statusDaySchema>;

export const componentStatusSchema = z.object({
  component: z.enum(STATUS_COMPONENTS),
  state: z.enum(COMPONENT_STATES),
  /** Over the whole window, rounded down to 3 decimals. */
  uptime_percent: z.number().min(0).max(100),
  /** Oldest first, today last. */
  days: z.array(statusDaySchema),
});
export type ComponentStatus = z.infer<typeof componentStatusSchema>;

/** `GET /api/status/page`: the public status page (no sign-in). */
export const statusPageSchema = z.object({
  /** Epoch seconds the page was computed at. */
  generated_at: z.number().int(),
  /** `operational` unless some component is degraded or out: then the worst of them. */
  overall: z.enum(COMPONENT_STATES),
  window_days: z.number().int().positive(),
  components: z.array(componentStatusSchema),
  /** Unresolved incidents, newest start first. */
  open_incidents: z.array(incidentViewSchema),
  /** Resolved incidents that overlap the window, newest start first. */
  past_incidents: z.array(incidentViewSchema),
});
export type StatusPage = z.infer<typeof statusPageSchema>;
