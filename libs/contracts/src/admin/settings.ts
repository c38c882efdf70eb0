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
} as const;

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
