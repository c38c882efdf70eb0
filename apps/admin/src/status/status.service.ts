import { Injectable } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import { QUOTA_PER_USD, TOLLGATE_VERSION, type SystemStatus } from '@tollgate/contracts';
import type { AdminConfig } from '../config';

/** What the web client needs at start-up, from configuration; an OAuth provider is on when its id and secret are set. */
@Injectable()
export class StatusService {
  private readonly startTime = Math.floor(Date.now() / 1000);

  constructor(@InjectServiceConfig() private readonly config: AdminConfig) {}

  status(): SystemStatus {
    const c = this.config;
    return {
      system_name: c.SYSTEM_NAME,
      version: TOLLGATE_VERSION,
      server_address: c.SERVER_ADDRESS,
      chat_models: c.CHAT_MODELS,
      github_oauth: !!(c.GITHUB_CLIENT_ID && c.GITHUB_CLIENT_SECRET),
      github_client_id: c.GITHUB_CLIENT_ID,
      google_oauth: !!(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET),
      google_client_id: c.GOOGLE_CLIENT_ID,
      discord_oauth: !!(c.DISCORD_CLIENT_ID && c.DISCORD_CLIENT_SECRET),
      discord_client_id: c.DISCORD_CLIENT_ID,
      discord_redirect_uri: c.DISCORD_REDIRECT_URI,
      email_verification: c.TOLLGATE_EMAIL_VERIFICATION,
      quota_per_unit: QUOTA_PER_USD,
      default_currency: c.TOLLGATE_DEFAULT_CURRENCY,
      payment_test_enabled: c.TOLLGATE_PAYMENT_TEST,
      start_time: this.startTime,
    };
  }
}
