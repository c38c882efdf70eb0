import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import type { AdminConfig } from './config';
import { StatusController } from './status/status.controller';
import { StatusService } from './status/status.service';

@Module({})
export class AdminModule {
  static register(config: AdminConfig, runtime: ServiceRuntime): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        ServiceInfrastructureModule.forRoot({
          runtime,
          database: {
            url: config.DATABASE_URL,
            entities: [],
            migrations: [],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
      ],
      controllers: [StatusController],
      providers: [StatusService],
    };
  }
}
