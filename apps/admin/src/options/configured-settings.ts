import { SETTING_KEYS, type PaymentMethodsResult, type SettingKey } from '@tollgate/contracts';
import type { AdminConfig } from '../config';

/**
 * The value each setting has while no operator sets it, spelled as the option would be ('true',
 * '0', 'a,b'): admin's copy of the configuration for what it mirrors, the applying service's
 * built-in default for what has no configuration (billing-settings.ts, relay's limits), billing's
 * answer for the card and crypto switches (on exactly when billing holds the provider's credentials;
 * absent until billing first answers). Settings only another service's configuration decides
 * (AFFILIATE_REWARD_PERCENT, LOG_RETENTION_DAYS, MAIL_FROM) are absent: admin cannot tell them.
 */
export function configuredSettings(
  config: AdminConfig,
  billing: PaymentMethodsResult | undefined,
): Partial<Record<SettingKey, string>> {
  return {
    [SETTING_KEYS.registerEnabled]: 'true',
    [SETTING_KEYS.emailVerificationEnabled]: String(config.TOLLGATE_EMAIL_VERIFICATION),
    [SETTING_KEYS.quotaForNewUser]: '0',
    [SETTING_KEYS.passwordLoginEnabled]: 'true',
    [SETTING_KEYS.githubOAuthEnabled]: 'true',
    [SETTING_KEYS.googleOAuthEnabled]: 'true',
    [SETTING_KEYS.discordOAuthEnabled]: 'true',
    [SETTING_KEYS.githubClientId]: config.GITHUB_CLIENT_ID,
    [SETTING_KEYS.googleClientId]: config.GOOGLE_CLIENT_ID,
    [SETTING_KEYS.discordClientId]: config.DISCORD_CLIENT_ID,
    [SETTING_KEYS.serverAddress]: config.SERVER_ADDRESS,
    [SETTING_KEYS.chatModels]: config.CHAT_MODELS.join(','),
    [SETTING_KEYS.exchangeRateMarkupPercent]: '0',
    [SETTING_KEYS.testPaymentEnabled]: String(config.TOLLGATE_PAYMENT_TEST),
    [SETTING_KEYS.groupRateLimits]: '{}',
    ...(billing
      ? {
          [SETTING_KEYS.yookassaEnabled]: String(billing.yookassa),
          [SETTING_KEYS.cryptoEnabled]: String(billing.crypto),
        }
      : {}),
  };
}
