import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { AccessTokensModule } from './access-tokens/access-tokens.module';
import { AffiliateModule } from './affiliate/affiliate.module';
import type { AuthConfig } from './config';
import { OAuthModule } from './oauth/oauth.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { RegistrationModule } from './registration/registration.module';
import { SelfModule } from './self/self.module';
import { SessionsModule } from './sessions/sessions.module';
import { AppliedUsageEvent } from './token-usage/applied-usage-event.entity';
import { TokenUsageModule } from './token-usage/token-usage.module';
import { Token } from './tokens/token.entity';
import { TokensModule } from './tokens/tokens.module';
import { UserAdminModule } from './user-admin/user-admin.module';
import { AUTH_MIGRATIONS } from './migrations/auth-migrations';
import { User } from './users/user.entity';
import { UsersModule } from './users/users.module';
import { VerificationModule } from './verification/verification.module';

/** Auth: the database and bus, then one module per feature (each folder wires its own controllers and providers). */
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
            // By feature: users, tokens (API keys), token usage (their spending).
            entities: [User, Token, AppliedUsageEvent],
            migrations: AUTH_MIGRATIONS,
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
        UsersModule,
        VerificationModule,
        RegistrationModule,
        SessionsModule,
        SelfModule,
        TokensModule,
        AccessTokensModule,
        PasswordResetModule,
        AffiliateModule,
        UserAdminModule,
        OAuthModule,
        TokenUsageModule,
      ],
    };
  }
}
