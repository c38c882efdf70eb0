import { z } from 'zod';

const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;
/** Markdown keeps tabs and line breaks. */
const NO_CONTROL_BUT_WHITESPACE = /^[^\p{Cf}\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$/u;

const isCalendarDate = (text: string) => {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
};

const fields = {
  version: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(32, 'must be at most 32 characters')
    .regex(/^[\w.+-]+$/, 'must be a version like 1.4.0 or 2.0.0-rc.1'),
  title: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
  content: z
    .string({ invalid_type_error: 'must be text' })
    .max(20_000, 'must be at most 20000 characters')
    .regex(NO_CONTROL_BUT_WHITESPACE, 'must not contain control characters'),
  release_date: z
    .string({ required_error: 'is required', invalid_type_error: 'must be a date like 2026-11-22' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-11-22')
    .refine(isCalendarDate, 'must be a real calendar date'),
};

/** POST /api/versions */
export const createVersionRequestSchema = z.object({
  version: fields.version,
  title: fields.title,
  content: fields.content.default(''),
  release_date: fields.release_date,
});
export type CreateVersionRequest = z.output<typeof createVersionRequestSchema>;

/** PUT /api/versions: a partial update of entry `id`. */
export const updateVersionRequestSchema = z.object({
  id: z
    .number({ required_error: 'is required', invalid_type_error: 'must be an id' })
    .int('must be an id')
    .positive('must be an id')
    .max(2_147_483_647, 'must be an id'),
  version: fields.version.optional(),
  title: fields.title.optional(),
  content: fields.content.optional(),
  release_date: fields.release_date.optional(),
});
export type UpdateVersionRequest = z.output<typeof updateVersionRequestSchema>;

/** One changelog entry as GET /api/versions serves it. */
export const versionViewSchema = z.object({
  id: z.number().int().positive(),
  version: z.string(),
  title: z.string(),
  /** Markdown. */
  content: z.string(),
  /** `YYYY-MM-DD`, a calendar day without a time zone. */
  release_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type VersionView = z.infer<typeof versionViewSchema>;
