import { REDACTION_CENSOR } from '../logging/redaction';
import { secretKeysOf } from './load-config';

/** A safety net for fields a schema forgot to mark secret. */
const SECRET_LOOKING_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|PRIVATE|CREDENTIAL/i;

/** Credentials inside connection URLs (postgres://user:password@host) are masked, the rest kept. */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@/\s]+@/i;
const maskUrlPassword = (value: string): string => value.replace(URL_PASSWORD, `$1${REDACTION_CENSOR}@`);

/** The configuration as it may be logged: secret fields censored, URL passwords masked. */
export const redactConfig = <T extends object>(config: T): Record<keyof T, unknown> => {
  const secrets = secretKeysOf(config);
  const entries = Object.entries(config).map(([key, value]) => {
    if (value === undefined) return [key, value];
    if (secrets.has(key) || SECRET_LOOKING_NAME.test(key)) return [key, REDACTION_CENSOR];
    return [key, typeof value === 'string' ? maskUrlPassword(value) : value];
  });
  return Object.fromEntries(entries) as Record<keyof T, unknown>;
};
