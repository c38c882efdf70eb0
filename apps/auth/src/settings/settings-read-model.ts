import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { optionFlag, SETTING_KEYS } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { HealthRegistry, InjectServiceConfig } from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import type { AuthConfig } from '../config';

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

  async onModuleDestroy(): Promise<void> {
    await this.table?.stop();
  }
}
