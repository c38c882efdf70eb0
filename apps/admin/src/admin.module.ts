import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { Channel } from './channels/channel.entity';
import { ChannelsModule } from './channels/channels.module';
import type { AdminConfig } from './config';
import { ChannelsMigration } from './migrations/20261220-channels.migration';
import { OptionsMigration } from './migrations/20261221-options.migration';
import { Option } from './options/option.entity';
import { OptionsModule } from './options/options.module';
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
            entities: [Channel, Option],
            migrations: [ChannelsMigration, OptionsMigration],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
        ChannelsModule,
        OptionsModule,
      ],
      controllers: [StatusController],
      providers: [StatusService],
    };
  }
}
