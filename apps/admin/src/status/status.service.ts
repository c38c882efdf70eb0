import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  optionFlag,
  optionList,
  optionText,
  QUOTA_PER_USD,
  parseGroupRateLimits,
  SETTING_KEYS,
  TOLLGATE_VERSION,
  USER_GROUPS,
  type GroupRateLimits,
  type SystemStatus,
} from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { HealthRegistry, InjectServiceConfig } from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import type { AdminConfig } from '../config';
import { BillingPaymentMethods } from './billing-payment-methods';

/**
 * What the web client needs at start-up: configuration, overridden by the operators' settings
 * (catalog.option) where they set one; an OAuth provider is on when its id and secret are set, a card
 * or crypto payment method when billing has said it holds its credentials (the web keeps a status for
 * minutes, so a method billing has not confirmed is not offered).
 */
@Injectable()
export class StatusService implements OnModuleInit, OnModuleDestroy {
  private readonly startTime = Math.floor(Date.now() / 1000);
  private settings?: SettingsTable;

  constructor(
    @InjectServiceConfig() private readonly config: AdminConfig,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly health: HealthRegistry,
    private readonly paymentMethods: BillingPaymentMethods,
  ) {}

  async onModuleInit(): Promise<void> {
    this.settings = await SettingsTable.open(this.bus);
    this.health.registerReadinessCheck('settings', () => {
      if (!this.settings?.isCaughtUp()) throw new Error('catalog.option is still being read');
    });
  }

  async status(): Promise<SystemStatus> {
    // Right after a start, billing's first answer is usually a moment away: wait for that one ask.
    await this.paymentMethods.asked();
    const c = this.config;
    const setting = (key: string) => this.settings?.get(key);
    const on = (key: string, fallback = true) => optionFlag(setting(key)) ?? fallback;
    const clientId = (key: string, configured: string | undefined) =>
      optionText(setting(key)) ?? configured ?? '';
    const github = clientId(SETTING_KEYS.githubClientId, c.GITHUB_CLIENT_ID);
    const google = clientId(SETTING_KEYS.googleClientId, c.GOOGLE_CLIENT_ID);
    const discord = clientId(SETTING_KEYS.discordClientId, c.DISCORD_CLIENT_ID);
    const billing = this.paymentMethods.current();
    return {
      system_name: c.SYSTEM_NAME,
      version: TOLLGATE_VERSION,
      server_address: setting(SETTING_KEYS.serverAddress)?.trim() || c.SERVER_ADDRESS,
      chat_models: optionList(setting(SETTING_KEYS.chatModels)) ?? c.CHAT_MODELS,
      github_oauth: !!(github && c.GITHUB_CLIENT_SECRET) && on(SETTING_KEYS.githubOAuthEnabled),
      github_client_id: github,
      google_oauth: !!(google && c.GOOGLE_CLIENT_SECRET) && on(SETTING_KEYS.googleOAuthEnabled),
      google_client_id: google,
      discord_oauth: !!(discord && c.DISCORD_CLIENT_SECRET) && on(SETTING_KEYS.discordOAuthEnabled),
      discord_client_id: discord,
      discord_redirect_uri: c.DISCORD_REDIRECT_URI,
      email_verification:
        optionFlag(setting(SETTING_KEYS.emailVerificationEnabled)) ?? c.TOLLGATE_EMAIL_VERIFICATION,
      quota_per_unit: QUOTA_PER_USD,
      default_currency: c.TOLLGATE_DEFAULT_CURRENCY,
      payment_test_enabled: on(SETTING_KEYS.testPaymentEnabled, c.TOLLGATE_PAYMENT_TEST),
      start_time: this.startTime,
      register_enabled: on(SETTING_KEYS.registerEnabled),
      password_login: on(SETTING_KEYS.passwordLoginEnabled),
      yookassa_enabled: on(SETTING_KEYS.yookassaEnabled) && billing?.yookassa === true,
      crypto_enabled: on(SETTING_KEYS.cryptoEnabled) && billing?.crypto === true,
      group_rate_limits: publicGroupLimits(parseGroupRateLimits(setting(SETTING_KEYS.groupRateLimits))),
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.settings?.stop();
  }
}

/**
 * The named groups' limits only (default, vip, svip, enterprise): a company's own group, its name and
 * its contract's limits are nobody else's business. Its members read theirs from
 * GET /api/token/group_limits.
 */
function publicGroupLimits(limits: GroupRateLimits): GroupRateLimits {
  const named: readonly string[] = USER_GROUPS;
  return Object.fromEntries(Object.entries(limits).filter(([group]) => named.includes(group)));
}
