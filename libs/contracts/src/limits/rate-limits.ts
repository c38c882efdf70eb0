import { z } from 'zod';

/**
 * Request rate limits of the /v1 API. A group's limits (set by admins in the GroupRateLimits option)
 * bound each user of the group, all their keys and chats together, and each of their keys; a key
 * may set its own, tighter, limits. 0 means "no limit" for a group and "the group's" for a key.
 */
export interface RateLimits {
  /** Requests per minute. */
  rpm: number;
  /** Tokens per minute: prompt and completion, reserved up front, corrected by the real usage. */
  tpm: number;
  /** Requests in flight at once. */
  concurrency: number;
}

/** The span over which requests and tokens per minute are counted (a sliding window). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

export const NO_RATE_LIMITS: RateLimits = Object.freeze({ rpm: 0, tpm: 0, concurrency: 0 });

const MAX_RATE_LIMIT = 1_000_000_000;
const limitValue = z.number().int().min(0).max(MAX_RATE_LIMIT);

export const rateLimitsSchema = z
  .object({
    rpm: limitValue.default(0),
    tpm: limitValue.default(0),
    concurrency: limitValue.default(0),
  })
  .strict();

const GROUP_NAME = /^[\w.-]{1,64}$/;

/** The GroupRateLimits option: `{"default": {"rpm": 60, "tpm": 200000, "concurrency": 10}, ...}`. */
export const groupRateLimitsSchema = z.record(z.string().regex(GROUP_NAME), rateLimitsSchema);
export type GroupRateLimits = Record<string, RateLimits>;

/** Why a GroupRateLimits value cannot be stored, or undefined when it can. */
export function groupRateLimitsProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'must be JSON like {"default": {"rpm": 60, "tpm": 200000, "concurrency": 10}}';
  }
  const parsed = groupRateLimitsSchema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.join('.');
  return where === '' ? 'must be an object of groups' : `${where}: ${issue.message}`;
}

/** The option's groups, or none when it is unset or unreadable (checked when it was stored). */
export function parseGroupRateLimits(text: string | undefined): GroupRateLimits {
  if (text === undefined || text.trim() === '') return {};
  try {
    const parsed = groupRateLimitsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** A group's limits; a group the option does not name has none. */
export function limitsOfGroup(groups: GroupRateLimits, group: string): RateLimits {
  // Own keys only: a group called `constructor` must not find Object's.
  return Object.hasOwn(groups, group) ? groups[group]! : NO_RATE_LIMITS;
}

/** A key's own limits as stored on it (0 = the group's). */
export interface KeyRateLimitFields {
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
}

const tighter = (own: number, group: number): number => {
  if (own === 0) return group;
  if (group === 0) return own;
  return Math.min(own, group);
};

/** What bounds one key: its own limits where set, never looser than its group's. */
export function effectiveKeyLimits(key: KeyRateLimitFields, group: RateLimits): RateLimits {
  return {
    rpm: tighter(key.rpm_limit, group.rpm),
    tpm: tighter(key.tpm_limit, group.tpm),
    concurrency: tighter(key.concurrency_limit, group.concurrency),
  };
}

/** The key's field that is above its group's limit, if one is. */
export function keyLimitAboveGroup(
  key: Partial<KeyRateLimitFields>,
  group: RateLimits,
): keyof KeyRateLimitFields | undefined {
  const pairs: [keyof KeyRateLimitFields, number][] = [
    ['rpm_limit', group.rpm],
    ['tpm_limit', group.tpm],
    ['concurrency_limit', group.concurrency],
  ];
  for (const [field, bound] of pairs) {
    const own = key[field] ?? 0;
    if (bound > 0 && own > bound) return field;
  }
  return undefined;
}

export const MAX_KEY_RATE_LIMIT = MAX_RATE_LIMIT;
