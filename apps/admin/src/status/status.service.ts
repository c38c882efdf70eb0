import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  optionFlag,
  optionList,
  QUOTA_PER_USD,
  SETTING_KEYS,
  TOLLGATE_VERSION,
  type SystemStatus,
} from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { HealthRegistry, InjectServiceConfig } from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import type { AdminConfig } from '../config';

/**
 * What the web client needs at start-up: configuration, overridden by the operators' settings
 * (catalog.option) where they set one; an OAuth provider is on when its id and secret are set.
 */
@Injectable()
export class StatusService implements OnModuleInit, OnModuleDestroy {
  private readonly startTime = Math.floor(Date.now() / 1000);
  private settings?: SettingsTable;

  constructor(
    @InjectServiceConfig() private readonly config: AdminConfig,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    this.settings = await SettingsTable.open(this.bus);
    this.health.registerReadinessCheck('settings', () => {
      if (!this.settings?.isCaughtUp()) throw new Error('catalog.option is still being read');
    });
  }

  status(): SystemStatus {
    const c = this.config;
    const setting = (key: string) => this.settings?.get(key);
    return {
      system_name: c.SYSTEM_NAME,
      version: TOLLGATE_VERSION,
      server_address: setting(SETTING_KEYS.serverAddress)?.trim() || c.SERVER_ADDRESS,
      chat_models: optionList(setting(SETTING_KEYS.chatModels)) ?? c.CHAT_MODELS,
      github_oauth: !!(c.GITHUB_CLIENT_ID && c.GITHUB_CLIENT_SECRET),
      github_client_id: c.GITHUB_CLIENT_ID,
      google_oauth: !!(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET),
      google_client_id: c.GOOGLE_CLIENT_ID,
      discord_oauth: !!(c.DISCORD_CLIENT_ID && c.DISCORD_CLIENT_SECRET),
      discord_client_id: c.DISCORD_CLIENT_ID,
      discord_redirect_uri: c.DISCORD_REDIRECT_URI,
      email_verification:
        optionFlag(setting(SETTING_KEYS.emailVerificationEnabled)) ?? c.TOLLGATE_EMAIL_VERIFICATION,
      quota_per_unit: QUOTA_PER_USD,
      default_currency: c.TOLLGATE_DEFAULT_CURRENCY,
      payment_test_enabled: c.TOLLGATE_PAYMENT_TEST,
      start_time: this.startTime,
    };
  }

  async onModuleDestroy(): Promise<void> {
    await this.settings?.stop();
  }
}
