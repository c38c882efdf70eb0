import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import type { AuthConfig } from './config';
import { UsersMigration } from './migrations/20261122-users.migration';
import { PasswordHasher } from './users/password-hasher';
import { RootUserService } from './users/root-user.service';
import { User } from './users/user.entity';

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
            entities: [User],
            migrations: [UsersMigration],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
      ],
      providers: [PasswordHasher, RootUserService],
    };
  }
}
