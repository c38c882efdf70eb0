import {
  MAX_KEY_RATE_LIMIT,
  TOKEN_MODEL_ALIASES_MAX,
  TOKEN_NEVER_EXPIRES,
  createTokenRequestSchema,
  keyLimitAboveGroup,
  toScaledInteger,
  type AuthMessageKey,
  type KeyRateLimitFields,
  type RateLimits,
  type TokenView,
} from '@tollgate/contracts';
import { QUOTA_PER_USD } from '../currency/money';

/** What the key form edits, as text the way the inputs hold it. */
export interface TokenForm {
  name: string;
  /** '' for never, else a local 'YYYY-MM-DDTHH:mm' from the datetime input. */
  expiresAt: string;
  unlimitedQuota: boolean;
  /** The key's own spending limit in US dollars (decimal text). */
  quotaUsd: string;
  modelLimitsEnabled: boolean;
  /** Model names, one per line or comma-separated. */
  modelLimits: string;
  /** Addresses or CIDR blocks, one per line. */
  allowIps: string;
  /** The key's own rate limits as whole-number text; '' or '0' for the group's. */
  limits: Record<RateLimitField, string>;
  /** Model aliases, a row each; a row with both names empty is ignored. */
  modelAliases: AliasRow[];
}

/** One alias in the form: the model a client asks for and the model served instead. */
export interface AliasRow {
  /** Stable across edits, so React keeps each row's inputs when another row is removed. */
  id: number;
  asked: string;
  served: string;
}

let lastAliasRowId = 0;
export function aliasRow(asked = '', served = ''): AliasRow {
  lastAliasRowId += 1;
  return { id: lastAliasRowId, asked, served };
}

/** The longest model name an alias may hold (the contract's model names). */
export const ALIAS_NAME_MAX_LENGTH = 128;

/** A key's own rate limit, by its field in the contracts. */
export type RateLimitField = keyof KeyRateLimitFields;
export const RATE_LIMIT_FIELDS: readonly RateLimitField[] = ['rpm_limit', 'tpm_limit', 'concurrency_limit'];

/** The group's bound for each of a key's rate limits (0 = none). */
export function groupBound(group: RateLimits, field: RateLimitField): number {
  if (field === 'rpm_limit') return group.rpm;
  if (field === 'tpm_limit') return group.tpm;
  return group.concurrency;
}

/** The request body for POST/PUT /api/token/ (the contracts' field names). */
export interface TokenDraft extends KeyRateLimitFields {
  name: string;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string[];
  /** Asked model name → served model. */
  model_aliases: Record<string, string>;
}

export const EMPTY_TOKEN_FORM: TokenForm = {
  name: '',
  expiresAt: '',
  unlimitedQuota: true,
  quotaUsd: '',
  modelLimitsEnabled: false,
  modelLimits: '',
  allowIps: '',
  limits: { rpm_limit: '', tpm_limit: '', concurrency_limit: '' },
  modelAliases: [],
};

const SCHEMA_PROBLEMS = [
  'token_name_required',
  'token_name_too_long',
  'token_ip_invalid',
  'token_quota_negative',
  'token_field_invalid',
] as const satisfies readonly AuthMessageKey[];
type SchemaProblem = (typeof SCHEMA_PROBLEMS)[number];
/** Auth's refusal (400) of a key limit above its group's; the form checks it before sending. */
const ABOVE_GROUP = 'token_limit_above_group' satisfies AuthMessageKey;

/** Why the form cannot be sent; each has a text in the tokens namespace (`problem_<name>`). */
export type TokenFormProblem =
  | SchemaProblem
  | typeof ABOVE_GROUP
  | 'token_quota_invalid'
  | 'token_expiry_past'
  | 'token_limit_invalid'
  | AliasProblem;

/** Why the aliases break the contract's rules (at most 64, names non-empty and short, no self-maps or chains). */
export type AliasProblem =
  | 'token_alias_incomplete'
  | 'token_alias_name_invalid'
  | 'token_alias_self'
  | 'token_alias_repeated'
  | 'token_alias_chain'
  | 'token_alias_too_many';

/**
 * A refusal; for a rate limit, which one and (above the group's) the group's bound; for an alias,
 * its row (from 1) and the names concerned.
 */
export interface TokenFormRefusal {
  problem: TokenFormProblem;
  field?: RateLimitField;
  limit?: number;
  row?: number;
  asked?: string;
  served?: string;
}

function schemaProblem(message: string): SchemaProblem {
  return SCHEMA_PROBLEMS.find((key) => key === message) ?? 'token_field_invalid';
}

const pad = (n: number) => String(n).padStart(2, '0');
function toLocalInput(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function quotaToUsdText(quota: number): string {
  const micros = (BigInt(quota) * 1_000_000n) / QUOTA_PER_USD;
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Quota units for a dollar amount, exactly (rounded down to a whole unit); null when not an amount. */
export function usdToQuota(text: string): number | null {
  const cleaned = text.trim().replace(',', '.');
  try {
    const micros = toScaledInteger(cleaned, 6);
    const quota = (micros * QUOTA_PER_USD) / 1_000_000n;
    return quota <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(quota) : null;
  } catch {
    return null;
  }
}

export function formFromToken(token: TokenView): TokenForm {
  return {
    name: token.name,
    expiresAt: token.expired_time === TOKEN_NEVER_EXPIRES ? '' : toLocalInput(token.expired_time),
    unlimitedQuota: token.unlimited_quota,
    quotaUsd: token.unlimited_quota ? '' : quotaToUsdText(token.remain_quota),
    modelLimitsEnabled: token.model_limits_enabled,
    modelLimits: token.model_limits.split(',').filter(Boolean).join('\n'),
    allowIps: token.allow_ips,
    limits: {
      rpm_limit: limitText(token.rpm_limit),
      tpm_limit: limitText(token.tpm_limit),
      concurrency_limit: limitText(token.concurrency_limit),
    },
    modelAliases: Object.entries(token.model_aliases).map(([asked, served]) => aliasRow(asked, served)),
  };
}

const CONTROL_CHARACTERS = /[\p{Cc}\p{Cf}]/u;
const validName = (name: string) => name.length <= ALIAS_NAME_MAX_LENGTH && !CONTROL_CHARACTERS.test(name);

/**
 * The alias rows as the map the contract takes (names trimmed, rows with both names empty skipped),
 * or the first rule broken, in the contract's terms: at most 64 aliases; each name non-empty,
 * at most 128 characters, without control characters; no name mapped to itself; no name asked
 * twice; and no chains (a served model may not itself be an alias).
 */
export function aliasesFromRows(
  rows: readonly AliasRow[],
): { aliases: Record<string, string> } | TokenFormRefusal {
  const aliases = new Map<string, string>();
  const rowOf = new Map<string, number>();
  for (const [index, row] of rows.entries()) {
    const at = { row: index + 1 };
    const asked = row.asked.trim();
    const served = row.served.trim();
    if (asked === '' && served === '') continue;
    if (asked === '' || served === '') return { problem: 'token_alias_incomplete', ...at };
    if (!validName(asked) || !validName(served)) return { problem: 'token_alias_name_invalid', ...at };
    if (asked === served) return { problem: 'token_alias_self', ...at, asked };
    if (aliases.has(asked)) return { problem: 'token_alias_repeated', ...at, asked };
    aliases.set(asked, served);
    rowOf.set(asked, at.row);
  }
  if (aliases.size > TOKEN_MODEL_ALIASES_MAX) return { problem: 'token_alias_too_many' };
  for (const [asked, served] of aliases) {
    if (aliases.has(served)) return { problem: 'token_alias_chain', row: rowOf.get(asked), asked, served };
  }
  return { aliases: Object.fromEntries(aliases) };
}

const limitText = (limit: number) => (limit > 0 ? String(limit) : '');

/** A limit's text as a number: '' is 0 (the group's); null when not a whole number in range. */
function parseLimit(text: string): number | null {
  const cleaned = text.trim().replace(/[\s\u00a0]/g, '');
  if (cleaned === '') return 0;
  if (!/^\d{1,10}$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return value <= MAX_KEY_RATE_LIMIT ? value : null;
}

const lines = (text: string) =>
  text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/**
 * The form as a request body, checked with the same schema the server uses (SPEC §5: the name
 * cannot be empty) and, when the key's group is known, against the group's rate limits as auth
 * checks them (a key may tighten its group's limits, never loosen them), or the first problem found.
 */
export function draftFromForm(
  form: TokenForm,
  { groupLimits, now = new Date() }: { groupLimits?: RateLimits; now?: Date } = {},
): { draft: TokenDraft } | TokenFormRefusal {
  let expiredTime = TOKEN_NEVER_EXPIRES;
  if (form.expiresAt) {
    const at = new Date(form.expiresAt).getTime();
    if (Number.isNaN(at)) return { problem: 'token_field_invalid' };
    if (at <= now.getTime()) return { problem: 'token_expiry_past' };
    expiredTime = Math.floor(at / 1000);
  }
  let remainQuota = 0;
  if (!form.unlimitedQuota) {
    const quota = usdToQuota(form.quotaUsd);
    if (quota === null) return { problem: 'token_quota_invalid' };
    remainQuota = quota;
  }
  const limits: KeyRateLimitFields = { rpm_limit: 0, tpm_limit: 0, concurrency_limit: 0 };
  for (const field of RATE_LIMIT_FIELDS) {
    const value = parseLimit(form.limits[field]);
    if (value === null) return { problem: 'token_limit_invalid', field };
    limits[field] = value;
  }
  const above = groupLimits ? keyLimitAboveGroup(limits, groupLimits) : undefined;
  if (above && groupLimits) {
    return { problem: ABOVE_GROUP, field: above, limit: groupBound(groupLimits, above) };
  }
  const aliases = aliasesFromRows(form.modelAliases);
  if ('problem' in aliases) return aliases;
  const draft: TokenDraft = {
    name: form.name.trim(),
    expired_time: expiredTime,
    remain_quota: remainQuota,
    unlimited_quota: form.unlimitedQuota,
    model_limits_enabled: form.modelLimitsEnabled,
    model_limits: form.modelLimitsEnabled ? lines(form.modelLimits) : [],
    allow_ips: lines(form.allowIps),
    ...limits,
    model_aliases: aliases.aliases,
  };
  const checked = createTokenRequestSchema.safeParse(draft);
  if (!checked.success) return { problem: schemaProblem(checked.error.issues[0].message) };
  return { draft };
}
