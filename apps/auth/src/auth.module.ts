import { Module, type DynamicModule } from '@nestjs/common';
import { parseMasterKey, SERVICE_CONFIG } from '@tollgate/platform';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { AccessTokensController } from './access-tokens/access-tokens.controller';
import { AccessTokensService } from './access-tokens/access-tokens.service';
import { AffiliateController } from './affiliate/affiliate.controller';
import { AffiliateService } from './affiliate/affiliate.service';
import { BillingQuotaClient } from './billing/billing-quota.client';
import { UserAdminController } from './user-admin/user-admin.controller';
import { UserAdminService } from './user-admin/user-admin.service';
import { AppliedUsageEvent } from './token-usage/applied-usage-event.entity';
import { TokenExpirySweeper } from './token-usage/token-expiry.sweeper';
import { TokenUsageConsumer } from './token-usage/token-usage.consumer';
import { TokenUsageRepository } from './token-usage/token-usage.repository';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthService } from './oauth/oauth.service';
import { OAuthStateStore } from './oauth/oauth-state.store';
import { OAuthStrategies } from './oauth/oauth-strategies';
import { BalancesReadModel } from './balances/balances-read-model';
import { SettingsReadModel } from './settings/settings-read-model';
import type { AuthConfig } from './config';
import { mailSenderProvider } from './mail/mail-sender.provider';
import { UsersMigration } from './migrations/20261122-users.migration';
import { RegistrationMigration } from './migrations/20261201-registration.migration';
import { TokensMigration } from './migrations/20261215-tokens.migration';
import { AccountsMigration } from './migrations/20261222-accounts.migration';
import { SessionsValidAfterMigration } from './migrations/20261229-sessions-valid-after.migration';
import { TokenRateLimitsMigration } from './migrations/20261231-token-rate-limits.migration';
import { TokenModelAliasesMigration } from './migrations/20261231-token-model-aliases.migration';
import { PasswordResetController } from './password-reset/password-reset.controller';
import { PasswordResetService } from './password-reset/password-reset.service';
import { RegistrationController } from './registration/registration.controller';
import { RegistrationService } from './registration/registration.service';
import { SelfController } from './self/self.controller';
import { SelfService } from './self/self.service';
import { ProfileService } from './self/profile.service';
import { SettingsService } from './self/settings.service';
import { InternalSessionsController } from './sessions/internal-sessions.controller';
import { SessionStore } from './sessions/session.store';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { PasswordHasher } from './users/password-hasher';
import { RootUserService } from './users/root-user.service';
import { ApiKeyCipher } from './tokens/token-crypto';
import { Token } from './tokens/token.entity';
import { TokensController } from './tokens/tokens.controller';
import { TokensRepository } from './tokens/tokens.repository';
import { TokensService } from './tokens/tokens.service';
import { User } from './users/user.entity';
import { UsersRepository } from './users/users.repository';
import { VerificationCodesStore } from './verification/verification-codes.store';
import { VerificationController } from './verification/verification.controller';
import { VerificationService } from './verification/verification.service';

@Module({})
export class AuthModule {
  static register(config: AuthConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        ServiceInfrastructureModule.forRoot({
          runtime,
          database: {
            url: config.DATABASE_URL,
            entities: [User, Token, AppliedUsageEvent],
            migrations: [
              UsersMigration,
              RegistrationMigration,
              TokensMigration,
              AccountsMigration,
              SessionsValidAfterMigration,
              TokenRateLimitsMigration,
              TokenModelAliasesMigration,
            ],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
      ],
      controllers: [
        VerificationController,
        RegistrationController,
        SessionsController,
        SelfController,
        InternalSessionsController,
        TokensController,
        AccessTokensController,
        PasswordResetController,
        AffiliateController,
        UserAdminController,
        OAuthController,
      ],
      providers: [
        PasswordHasher,
        RootUserService,
        UsersRepository,
        mailSenderProvider,
        VerificationCodesStore,
        VerificationService,
        RegistrationService,
        SessionStore,
        SessionsService,
        BalancesReadModel,
        SettingsReadModel,
        SelfService,
        ProfileService,
        SettingsService,
        AccessTokensService,
        PasswordResetService,
        AffiliateService,
        BillingQuotaClient,
        UserAdminService,
        TokenUsageRepository,
        TokenUsageConsumer,
        TokenExpirySweeper,
        OAuthStrategies,
        OAuthStateStore,
        OAuthService,
        {
          provide: ApiKeyCipher,
          useFactory: (authConfig: AuthConfig) =>
            new ApiKeyCipher(parseMasterKey(authConfig.TOLLGATE_ENCRYPTION_KEY)),
          inject: [SERVICE_CONFIG],
        },
        TokensRepository,
        TokensService,
      ],
    };
  }
}
