import { SETTING_KEYS } from './settings';
import { z } from 'zod';

/** The option the public notice (GET /api/notice) is kept in, as new-api names it. */
export const NOTICE_OPTION_KEY = SETTING_KEYS.notice;
/** Its English text (`GET /api/notice?lang=en`); the notice above stays the default. */
export const NOTICE_EN_OPTION_KEY = SETTING_KEYS.noticeEn;
/** `GET /api/notice?lang=`: `en` asks for the English text where there is one. */
export const noticeQuerySchema = z.object({ lang: z.string().optional() });
export const OPTION_VALUE_MAX_LENGTH = 65_536;

/** Secrets come from configuration (marked, never logged), never from options that are listed and published. */
const SECRET_LIKE_KEY = /(secret|token|password|key)$/i;
const NO_CONTROL_BUT_WHITESPACE = /^[^\p{Cf}\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$/u;

/**
 * PUT /api/option/: one setting; new-api clients send numbers and booleans as such, they are kept as
 * text. Whether a catalogued setting can hold the value is admin's check (settingValueProblem), so
 * that the refusal is in the caller's language.
 */
export const updateOptionRequestSchema = z.object({
  key: z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .regex(/^[A-Za-z][A-Za-z0-9_.]{0,127}$/, 'must be a setting name (letters, digits, _ and ., at most 128)')
    .refine((key) => !SECRET_LIKE_KEY.test(key), 'secrets are set in the configuration, not as options'),
  value: z
    .union([z.string(), z.number().finite(), z.boolean()], {
      errorMap: () => ({ message: 'must be text, a number or true/false' }),
    })
    .transform(String)
    .pipe(
      z
        .string()
        .max(OPTION_VALUE_MAX_LENGTH, `must be at most ${OPTION_VALUE_MAX_LENGTH} characters`)
        .regex(NO_CONTROL_BUT_WHITESPACE, 'must not contain control characters'),
    ),
});
export type UpdateOptionRequest = z.output<typeof updateOptionRequestSchema>;

/** One setting as GET /api/option/ lists it. */
export const optionViewSchema = z.object({ key: z.string(), value: z.string() });
export type OptionView = z.infer<typeof optionViewSchema>;
