import { z } from 'zod';
import { groupRateLimitsSchema } from '../limits/rate-limits';
/**
 * The runtime settings an operator changes in the admin area (PUT /api/option/), by new-api's option
 * names. Admin keeps them and publishes each on the compacted catalog.option topic; every service
 * that applies one reads that topic into memory, so a change reaches every replica within seconds.
 * An unset option leaves the service's configuration in force.
 */
export const SETTING_KEYS = {
  /** 'false' refuses new registrations (existing users still sign in). */
  registerEnabled: 'RegisterEnabled',
  /** Overrides TOLLGATE_EMAIL_VERIFICATION. */
  emailVerificationEnabled: 'EmailVerificationEnabled',
  /** Comma-separated; overrides CHAT_MODELS (what the chat offers and /api/status shows). */
  chatModels: 'ChatModels',
  /** Overrides SERVER_ADDRESS (shown by /api/status, the API base URL in the docs and quick start). */
  serverAddress: 'ServerAddress',
  /** 'false' refuses sign-in by password to everyone but root (OAuth still works). */
  passwordLoginEnabled: 'PasswordLoginEnabled',
  /** 'false' turns a configured OAuth provider off (its id and secret stay in configuration). */
  githubOAuthEnabled: 'GitHubOAuthEnabled',
  googleOAuthEnabled: 'GoogleOAuthEnabled',
  discordOAuthEnabled: 'DiscordOAuthEnabled',
  /** Override the configured OAuth client ids (the secrets are configuration only). */
  githubClientId: 'GitHubClientId',
  googleClientId: 'GoogleClientId',
  discordClientId: 'DiscordClientId',
  /** Overrides MAIL_FROM: the sender of verification and reset mails. */
  smtpFrom: 'SMTPFrom',
  /** Quota credited (through the ledger) to each new account; default 0. */
  quotaForNewUser: 'QuotaForNewUser',
  /** Overrides AFFILIATE_REWARD_PERCENT. */
  affiliateRewardPercent: 'AffiliateRewardPercent',
  /** Overrides LOG_RETENTION_DAYS (0 keeps usage logs forever). */
  logRetentionDays: 'LogRetentionDays',
  /** Percent added to the dollar's rate in force for top-ups and ruble prices (default 0). */
  exchangeRateMarkupPercent: 'ExchangeRateMarkupPercent',
  /** 'false' stops new top-ups by that provider (configured ones only). */
  yookassaEnabled: 'YooKassaEnabled',
  cryptoEnabled: 'CryptoEnabled',
  /** Overrides TOLLGATE_PAYMENT_TEST (test top-ups for pilots). */
  testPaymentEnabled: 'TestPaymentEnabled',
  /**
   * Each group's /v1 rate limits, JSON: `{"default": {"rpm": 60, "tpm": 200000, "concurrency": 10}}`
   * (0 or absent = no limit). Relay enforces them; auth keeps keys' own limits within them.
   */
  groupRateLimits: 'GroupRateLimits',
  /** The notice shown to every visitor, in Markdown, in the default language (Russian). */
  notice: 'Notice',
  /** The notice's English text, shown instead when the interface is English; blank means none. */
  noticeEn: 'NoticeEn',
} as const;
export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

/** How the settings form shows a setting and how its value is checked. */
export type SettingType =
  | 'flag'
  | 'integer'
  | 'decimal'
  | 'text'
  | 'email'
  | 'url'
  | 'list'
  | 'markdown'
  /** A JSON document checked by the setting's own schema. */
  | 'json';
export type SettingGroup =
  'registration' | 'sign_in' | 'mail' | 'site' | 'chat' | 'money' | 'limits' | 'retention';

export interface SettingDefinition {
  key: SettingKey;
  /** snake_case name for texts (the web's labels). */
  slug: string;
  type: SettingType;
  group: SettingGroup;
  /** The services that read it from catalog.option. */
  appliedBy: readonly ('auth' | 'billing' | 'admin' | 'chat' | 'relay')[];
  /** Integers and decimals: the bounds, inclusive. */
  min?: number;
  max?: number;
}

const flag = (
  key: SettingKey,
  slug: string,
  group: SettingGroup,
  appliedBy: SettingDefinition['appliedBy'],
) => ({
  key,
  slug,
  type: 'flag' as const,
  group,
  appliedBy,
});

/** Every setting the admin area edits, in the order the form shows them. */
export const SETTINGS_CATALOGUE: readonly SettingDefinition[] = [
  flag(SETTING_KEYS.registerEnabled, 'register_enabled', 'registration', ['auth', 'admin']),
  flag(SETTING_KEYS.emailVerificationEnabled, 'email_verification', 'registration', ['auth', 'admin']),
  {
    key: SETTING_KEYS.quotaForNewUser,
    slug: 'quota_for_new_user',
    type: 'integer',
    group: 'registration',
    appliedBy: ['billing'],
    min: 0,
    max: 1_000_000_000_000,
  },
  flag(SETTING_KEYS.passwordLoginEnabled, 'password_login', 'sign_in', ['auth', 'admin']),
  flag(SETTING_KEYS.githubOAuthEnabled, 'github_oauth', 'sign_in', ['auth', 'admin']),
  {
    key: SETTING_KEYS.githubClientId,
    slug: 'github_client_id',
    type: 'text',
    group: 'sign_in',
    appliedBy: ['auth', 'admin'],
  },
  flag(SETTING_KEYS.googleOAuthEnabled, 'google_oauth', 'sign_in', ['auth', 'admin']),
  {
    key: SETTING_KEYS.googleClientId,
    slug: 'google_client_id',
    type: 'text',
    group: 'sign_in',
    appliedBy: ['auth', 'admin'],
  },
  flag(SETTING_KEYS.discordOAuthEnabled, 'discord_oauth', 'sign_in', ['auth', 'admin']),
  {
    key: SETTING_KEYS.discordClientId,
    slug: 'discord_client_id',
    type: 'text',
    group: 'sign_in',
    appliedBy: ['auth', 'admin'],
  },
  {
    key: SETTING_KEYS.smtpFrom,
    slug: 'smtp_from',
    type: 'email',
    group: 'mail',
    appliedBy: ['auth'],
  },
  {
    key: SETTING_KEYS.serverAddress,
    slug: 'server_address',
    type: 'url',
    group: 'site',
    appliedBy: ['admin'],
  },
  {
    key: SETTING_KEYS.chatModels,
    slug: 'chat_models',
    type: 'list',
    group: 'chat',
    appliedBy: ['admin', 'chat'],
  },
  {
    key: SETTING_KEYS.affiliateRewardPercent,
    slug: 'affiliate_reward_percent',
    type: 'decimal',
    group: 'money',
    appliedBy: ['billing'],
    min: 0,
    max: 100,
  },
  {
    key: SETTING_KEYS.exchangeRateMarkupPercent,
    slug: 'exchange_rate_markup',
    type: 'decimal',
    group: 'money',
    appliedBy: ['billing'],
    min: 0,
    max: 100,
  },
  flag(SETTING_KEYS.yookassaEnabled, 'yookassa', 'money', ['billing', 'admin']),
  flag(SETTING_KEYS.cryptoEnabled, 'crypto', 'money', ['billing', 'admin']),
  flag(SETTING_KEYS.testPaymentEnabled, 'test_payments', 'money', ['billing', 'admin']),
  {
    key: SETTING_KEYS.groupRateLimits,
    slug: 'group_rate_limits',
    type: 'json',
    group: 'limits',
    appliedBy: ['relay', 'auth', 'admin'],
  },
  {
    key: SETTING_KEYS.logRetentionDays,
    slug: 'log_retention_days',
    type: 'integer',
    group: 'retention',
    appliedBy: ['billing'],
    min: 0,
    max: 36_500,
  },
];

const BY_KEY = new Map<string, SettingDefinition>(
  SETTINGS_CATALOGUE.map((setting) => [setting.key, setting]),
);

export function settingDefinition(key: string): SettingDefinition | undefined {
  return BY_KEY.get(key);
}

/**
 * Why a value cannot be a catalogued setting: a kind and the numbers or names that go with it, no
 * prose. Admin's refusal words it in the caller's language (its message `setting_<kind>`, with the
 * setting's key as `{key}`), the web's settings form in the reader's.
 */
export type SettingProblem =
  | { kind: 'not_flag' }
  | { kind: 'not_whole_number' }
  | { kind: 'not_decimal'; decimals: number }
  | { kind: 'below_min'; min: number }
  | { kind: 'above_max'; max: number }
  | { kind: 'not_mailbox' }
  | { kind: 'not_http_address' }
  | { kind: 'not_one_word'; max_length: number }
  /** Not JSON, or not the document the setting holds at all: `example` shows one. */
  | { kind: 'not_json_like'; example: string }
  /** The document's `field` (a dotted path, e.g. `default.rpm`) is wrong. */
  | { kind: 'json_field_invalid'; field: string };
export type SettingProblemKind = SettingProblem['kind'];
export const SETTING_PROBLEM_KINDS = [
  'not_flag',
  'not_whole_number',
  'not_decimal',
  'below_min',
  'above_max',
  'not_mailbox',
  'not_http_address',
  'not_one_word',
  'not_json_like',
  'json_field_invalid',
] as const satisfies readonly SettingProblemKind[];

/** DECIMAL's places after the point. */
const DECIMAL_PLACES = 6;
const DECIMAL = /^\d{1,15}(\.\d{1,6})?$/;
const MAILBOX = /^(?:[^<>\r\n]{1,128} )?<?[^\s<>@]{1,64}@[^\s<>@]{1,255}\.[^\s<>@]{1,63}>?$/;
const TEXT_MAX_LENGTH = 256;

/** The JSON settings: the schema each is checked by and an example of a good value. */
const JSON_DOCUMENTS: Partial<Record<SettingKey, { schema: z.ZodTypeAny; example: string }>> = {
  [SETTING_KEYS.groupRateLimits]: {
    schema: groupRateLimitsSchema,
    example: '{"default": {"rpm": 60, "tpm": 200000, "concurrency": 10}}',
  },
};

/**
 * Why `value` cannot be the catalogued setting `key`, or undefined when it can (or when `key` is
 * not catalogued: operators may keep other options, as new-api allows). An empty value unsets a
 * setting: the configuration applies again.
 */
export function settingValueProblem(key: string, value: string): SettingProblem | undefined {
  const setting = BY_KEY.get(key);
  if (!setting || value.trim() === '') return undefined;
  const text = value.trim();
  switch (setting.type) {
    case 'flag':
      return optionFlag(text) === undefined ? { kind: 'not_flag' } : undefined;
    case 'integer':
      if (!/^\d{1,15}$/.test(text)) return { kind: 'not_whole_number' };
      return outOfBounds(Number(text), setting);
    case 'decimal':
      if (!DECIMAL.test(text)) return { kind: 'not_decimal', decimals: DECIMAL_PLACES };
      return outOfBounds(Number(text), setting);
    case 'email':
      return MAILBOX.test(text) ? undefined : { kind: 'not_mailbox' };
    case 'url':
      return /^https?:\/\/[^\s]+$/.test(text) ? undefined : { kind: 'not_http_address' };
    case 'json':
      return jsonProblem(text, JSON_DOCUMENTS[setting.key]);
    case 'text':
      return text.length > TEXT_MAX_LENGTH || /\s/.test(text)
        ? { kind: 'not_one_word', max_length: TEXT_MAX_LENGTH }
        : undefined;
    default:
      return undefined;
  }
}

function outOfBounds(value: number, setting: SettingDefinition): SettingProblem | undefined {
  if (setting.min !== undefined && value < setting.min) return { kind: 'below_min', min: setting.min };
  if (setting.max !== undefined && value > setting.max) return { kind: 'above_max', max: setting.max };
  return undefined;
}

function jsonProblem(
  text: string,
  document: { schema: z.ZodTypeAny; example: string } | undefined,
): SettingProblem | undefined {
  if (!document) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'not_json_like', example: document.example };
  }
  const parsed = document.schema.safeParse(value);
  if (parsed.success) return undefined;
  const field = parsed.error.issues[0]!.path.join('.');
  return field === ''
    ? { kind: 'not_json_like', example: document.example }
    : { kind: 'json_field_invalid', field };
}

/** An integer option, or undefined when unset or not a whole number. */
export function optionInteger(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,15}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** A decimal option in its canonical spelling, or undefined when unset or not a plain decimal. */
export function optionDecimal(value: string | undefined): string | undefined {
  if (value === undefined || !DECIMAL.test(value.trim())) return undefined;
  return value
    .trim()
    .replace(/^0+(?=\d)/, '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** A text option, or undefined when unset or blank. */
export function optionText(value: string | undefined): string | undefined {
  return value?.trim() || undefined;
}

/** new-api keeps booleans as text: 'true' / 'false' (anything else is "not set"). */
export function optionFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}

/** A comma-separated list; undefined when the option is not set. */
export function optionList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** `GET /api/option/secrets` (root): whether the configuration holds each secret, never its value. */
export const configuredSecretsSchema = z.object({
  github_client_secret: z.boolean(),
  google_client_secret: z.boolean(),
  discord_client_secret: z.boolean(),
});
export type ConfiguredSecrets = z.infer<typeof configuredSecretsSchema>;
