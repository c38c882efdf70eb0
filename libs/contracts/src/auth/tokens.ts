import { z } from 'zod';
import { MAX_KEY_RATE_LIMIT, rateLimitsSchema } from '../limits/rate-limits';
import type { AuthMessageKey } from './auth-message-keys';

/** new-api's token states. Only enabled and disabled may be set by a user; the others follow use. */
export enum TokenStatus {
  Enabled = 1,
  Disabled = 2,
  Expired = 3,
  Exhausted = 4,
}

export const TOKEN_NAME_MAX_LENGTH = 50;
export const TOKEN_KEY_PREFIX = 'sk-';
export const TOKEN_KEY_RANDOM_LENGTH = 48;
/** `expired_time` of a key that never expires. */
export const TOKEN_NEVER_EXPIRES = -1;
export const TOKEN_PAGE_DEFAULT_SIZE = 100;

/**
 * Labels that derive the two API-key secrets from TOLLGATE_ENCRYPTION_KEY (HKDF-SHA256), so the
 * lookup hash and the at-rest encryption never share a key. Relay derives the same lookup key.
 */
export const TOKEN_KEY_HASH_PURPOSE = 'tollgate/api-key/lookup-hmac/v1';
export const TOKEN_KEY_ENCRYPTION_PURPOSE = 'tollgate/api-key/encryption/v1';

const key = (message: AuthMessageKey) => message;
const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;
const GROUP_PATTERN = /^[\w.-]*$/;
const MAX_LIST_ENTRIES = 256;

const tokenName = z
  .string({ required_error: key('token_name_required'), invalid_type_error: key('token_name_required') })
  .trim()
  .min(1, key('token_name_required'))
  .max(TOKEN_NAME_MAX_LENGTH, key('token_name_too_long'))
  .regex(NO_CONTROL_CHARACTERS, key('token_field_invalid'));

const quota = z
  .number({ invalid_type_error: key('token_field_invalid') })
  .int(key('token_field_invalid'))
  .min(0, key('token_quota_negative'))
  .max(Number.MAX_SAFE_INTEGER, key('token_field_invalid'));

const expiredTime = z
  .number({ invalid_type_error: key('token_field_invalid') })
  .int(key('token_field_invalid'))
  .min(TOKEN_NEVER_EXPIRES, key('token_field_invalid'))
  .max(Number.MAX_SAFE_INTEGER, key('token_field_invalid'));

const flag = z.boolean({ invalid_type_error: key('token_field_invalid') });

/** A key's own rate limit; 0 = its group's. */
const rateLimit = z
  .number({ invalid_type_error: key('token_field_invalid') })
  .int(key('token_field_invalid'))
  .min(0, key('token_field_invalid'))
  .max(MAX_KEY_RATE_LIMIT, key('token_field_invalid'));

/** A comma- or newline-separated list (new-api sends strings) or an array, as a clean array. */
const listOf = (entry: z.ZodType<string>, invalid: AuthMessageKey) =>
  z
    .union([z.string().max(16_384), z.array(z.string().max(256)).max(MAX_LIST_ENTRIES)], {
      errorMap: () => ({ message: key(invalid) }),
    })
    .transform((value) =>
      (Array.isArray(value) ? value : value.split(/[,\n]/))
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    )
    .pipe(z.array(entry).max(MAX_LIST_ENTRIES, key(invalid)));

const modelName = z
  .string()
  .max(128, key('token_field_invalid'))
  .regex(NO_CONTROL_CHARACTERS, key('token_field_invalid'));
/** One address or a CIDR block, IPv4 or IPv6. */
const ipOrCidr = z
  .string()
  .refine(
    (value) => z.string().ip().safeParse(value).success || z.string().cidr().safeParse(value).success,
    key('token_ip_invalid'),
  );

/** The most aliases one key may hold. */
export const TOKEN_MODEL_ALIASES_MAX = 64;

/**
 * A key's model aliases: the name a client asks for → the model served (a client's `gpt-4` →
 * `gpt-4o`). Relay applies them before anything else, so the key's model list, prices and channels
 * are the served model's.
 */
const modelAliases = z
  .record(
    modelName.pipe(z.string().trim().min(1, key('token_field_invalid'))),
    modelName.pipe(z.string().trim().min(1, key('token_field_invalid'))),
    {
      errorMap: () => ({ message: key('token_field_invalid') }),
    },
  )
  .refine((aliases) => Object.keys(aliases).length <= TOKEN_MODEL_ALIASES_MAX, key('token_field_invalid'))
  .refine(
    (aliases) => Object.entries(aliases).every(([from, to]) => from !== to && aliases[to] === undefined),
    key('token_field_invalid'),
  );

const editableFields = {
  expired_time: expiredTime,
  remain_quota: quota,
  unlimited_quota: flag,
  model_limits_enabled: flag,
  model_limits: listOf(modelName, 'token_field_invalid'),
  allow_ips: listOf(ipOrCidr, 'token_ip_invalid'),
  group: z
    .string({ invalid_type_error: key('token_field_invalid') })
    .trim()
    .max(64, key('token_field_invalid'))
    .regex(GROUP_PATTERN, key('token_field_invalid')),
  rpm_limit: rateLimit,
  tpm_limit: rateLimit,
  concurrency_limit: rateLimit,
  model_aliases: modelAliases,
};

/** POST /api/token/ */
export const createTokenRequestSchema = z.object({
  name: tokenName,
  expired_time: editableFields.expired_time.default(TOKEN_NEVER_EXPIRES),
  remain_quota: editableFields.remain_quota.default(0),
  unlimited_quota: editableFields.unlimited_quota.default(false),
  model_limits_enabled: editableFields.model_limits_enabled.default(false),
  model_limits: editableFields.model_limits.default([]),
  allow_ips: editableFields.allow_ips.default([]),
  group: editableFields.group.default(''),
  rpm_limit: editableFields.rpm_limit.default(0),
  tpm_limit: editableFields.tpm_limit.default(0),
  concurrency_limit: editableFields.concurrency_limit.default(0),
  model_aliases: editableFields.model_aliases.default({}),
});
export type CreateTokenRequest = z.output<typeof createTokenRequestSchema>;

/** PUT /api/token/: a partial update of the caller's key `id`; `status` enables or disables it. */
export const updateTokenRequestSchema = z.object({
  id: z
    .number({ required_error: key('token_field_invalid'), invalid_type_error: key('token_field_invalid') })
    .int(key('token_field_invalid'))
    .positive(key('token_field_invalid'))
    .max(2_147_483_647, key('token_field_invalid')),
  name: tokenName.optional(),
  status: z
    .union([z.literal(TokenStatus.Enabled), z.literal(TokenStatus.Disabled)], {
      errorMap: () => ({ message: key('token_field_invalid') }),
    })
    .optional(),
  expired_time: editableFields.expired_time.optional(),
  remain_quota: editableFields.remain_quota.optional(),
  unlimited_quota: editableFields.unlimited_quota.optional(),
  model_limits_enabled: editableFields.model_limits_enabled.optional(),
  model_limits: editableFields.model_limits.optional(),
  allow_ips: editableFields.allow_ips.optional(),
  group: editableFields.group.optional(),
  rpm_limit: editableFields.rpm_limit.optional(),
  tpm_limit: editableFields.tpm_limit.optional(),
  concurrency_limit: editableFields.concurrency_limit.optional(),
  model_aliases: editableFields.model_aliases.optional(),
});
export type UpdateTokenRequest = z.output<typeof updateTokenRequestSchema>;

/** GET /api/token/search?keyword= (part of the name). */
export const tokenSearchQuerySchema = z.object({
  keyword: z
    .string({ invalid_type_error: key('token_field_invalid') })
    .max(TOKEN_NAME_MAX_LENGTH, key('token_field_invalid'))
    .default(''),
});

/** A key as lists and reads show it (new-api's fields); `key` is masked. */
export const tokenViewSchema = z.object({
  id: z.number().int().positive(),
  user_id: z.number().int().positive(),
  key: z.string(),
  name: z.string(),
  status: z.nativeEnum(TokenStatus),
  created_time: z.number().int(),
  accessed_time: z.number().int(),
  expired_time: z.number().int(),
  remain_quota: z.number().int(),
  unlimited_quota: z.boolean(),
  used_quota: z.number().int(),
  model_limits_enabled: z.boolean(),
  /** Comma-separated, as new-api answers. */
  model_limits: z.string(),
  /** Newline-separated addresses and CIDR blocks, as new-api answers. */
  allow_ips: z.string(),
  group: z.string(),
  /** The key's own rate limits (0 = its group's). */
  rpm_limit: z.number().int(),
  tpm_limit: z.number().int(),
  concurrency_limit: z.number().int(),
  /** Client model name → served model. */
  model_aliases: z.record(z.string()),
});
export type TokenView = z.infer<typeof tokenViewSchema>;

/** POST /api/token/:id/key: the full key, for its owner's "copy key". */
export const tokenKeySchema = z.object({ key: z.string() });
export type TokenKey = z.infer<typeof tokenKeySchema>;

/**
 * GET /api/token/group_limits: the signed-in caller's group and its GroupRateLimits, which bound their
 * keys' own limits. Only the caller's group: /api/status publishes no company group's contract.
 */
export const tokenGroupLimitsSchema = z.object({ group: z.string(), limits: rateLimitsSchema });
export type TokenGroupLimits = z.infer<typeof tokenGroupLimitsSchema>;
