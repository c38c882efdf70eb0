import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  optionFlag,
  optionText,
  parseGroupRateLimits,
  SETTING_KEYS,
  type GroupRateLimits,
  type OAuthProvider,
} from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { HealthRegistry, InjectServiceConfig } from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import type { AuthConfig } from '../config';

const OAUTH_SETTING_KEYS: Record<OAuthProvider, { enabled: string; clientId: string }> = {
  github: { enabled: SETTING_KEYS.githubOAuthEnabled, clientId: SETTING_KEYS.githubClientId },
  google: { enabled: SETTING_KEYS.googleOAuthEnabled, clientId: SETTING_KEYS.googleClientId },
  discord: { enabled: SETTING_KEYS.discordOAuthEnabled, clientId: SETTING_KEYS.discordClientId },
};

const CONFIGURED_CLIENT_ID: Record<OAuthProvider, (config: AuthConfig) => string | undefined> = {
  github: (config) => config.GITHUB_CLIENT_ID,
  google: (config) => config.GOOGLE_CLIENT_ID,
  discord: (config) => config.DISCORD_CLIENT_ID,
};

/**
 * The operators' settings auth applies (catalog.option, kept in memory), each falling back to auth's
 * configuration while no operator has set it. Auth is ready once it has read the topic.
 */
@Injectable()
export class SettingsReadModel implements OnModuleInit, OnModuleDestroy {
  private table?: SettingsTable;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly health: HealthRegistry,
    @InjectServiceConfig() private readonly config: AuthConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.table = await SettingsTable.open(this.bus);
    this.health.registerReadinessCheck('settings', () => {
      if (!this.table?.isCaughtUp()) throw new Error('catalog.option is still being read');
    });
  }

  /** RegisterEnabled: new accounts may be made (default yes). */
  registrationOpen(): boolean {
    return optionFlag(this.table?.get(SETTING_KEYS.registerEnabled)) ?? true;
  }

  /** EmailVerificationEnabled, else TOLLGATE_EMAIL_VERIFICATION. */
  emailVerification(): boolean {
    return (
      optionFlag(this.table?.get(SETTING_KEYS.emailVerificationEnabled)) ??
      this.config.TOLLGATE_EMAIL_VERIFICATION
    );
  }

  /** PasswordLoginEnabled: users may sign in with a password (default yes; root always may). */
  passwordLogin(): boolean {
    return optionFlag(this.table?.get(SETTING_KEYS.passwordLoginEnabled)) ?? true;
  }

  /** <Provider>OAuthEnabled: the operator has not switched a configured provider off. */
  oauthSwitchedOn(provider: OAuthProvider): boolean {
    return optionFlag(this.table?.get(OAUTH_SETTING_KEYS[provider].enabled)) ?? true;
  }

  /** <Provider>ClientId, else the configured client id. */
  oauthClientId(provider: OAuthProvider): string | undefined {
    return (
      optionText(this.table?.get(OAUTH_SETTING_KEYS[provider].clientId)) ??
      CONFIGURED_CLIENT_ID[provider](this.config)
    );
  }

  /** SMTPFrom, else MAIL_FROM. */
  mailFrom(): string {
    return optionText(this.table?.get(SETTING_KEYS.smtpFrom)) ?? this.config.MAIL_FROM;
  }

  /** GroupRateLimits: each group's /v1 limits, which keys' own limits may not exceed. */
  groupRateLimits(): GroupRateLimits {
    return parseGroupRateLimits(this.table?.get(SETTING_KEYS.groupRateLimits));
  }

  async onModuleDestroy(): Promise<void> {
    await this.table?.stop();
  }
}
