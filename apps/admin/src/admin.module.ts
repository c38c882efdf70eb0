import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { AuditModule } from './audit/audit.module';
import { Channel } from './channels/channel.entity';
import { ChannelsModule } from './channels/channels.module';
import type { AdminConfig } from './config';
import { ChannelsMigration } from './migrations/20261220-channels.migration';
import { OptionsMigration } from './migrations/20261221-options.migration';
import { VersionsIncidentsMigration } from './migrations/20261223-versions-incidents.migration';
import { ChannelUsageMigration } from './migrations/20261224-channel-usage.migration';
import { ChannelOtherMigration } from './migrations/20261225-channel-other.migration';
import { IncidentTimelineMigration } from './migrations/20261226-incident-timeline.migration';
import { AuditMigration } from './migrations/20261227-audit.migration';
import { ChannelUsageEventsBrinMigration } from './migrations/20270106-channel-usage-events-brin.migration';
import { IncidentEnglishTextsMigration } from './migrations/20270111-incident-english-texts.migration';
import { ChannelTestErrorMigration } from './migrations/20270112-channel-test-error.migration';
import { Incident } from './incidents/incident.entity';
import { IncidentsModule } from './incidents/incidents.module';
import { Option } from './options/option.entity';
import { OptionsModule } from './options/options.module';
import { StatusController } from './status/status.controller';
import { PaymentMethodsModule } from './status/payment-methods.module';
import { StatusService } from './status/status.service';
import { Version } from './versions/version.entity';
import { VersionsModule } from './versions/versions.module';

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
            entities: [Channel, Option, Version, Incident],
            migrations: [
              ChannelsMigration,
              OptionsMigration,
              VersionsIncidentsMigration,
              ChannelUsageMigration,
              ChannelOtherMigration,
              IncidentTimelineMigration,
              AuditMigration,
              ChannelUsageEventsBrinMigration,
              IncidentEnglishTextsMigration,
              ChannelTestErrorMigration,
            ],
            outboxRelayEnabled: config.OUTBOX_RELAY_ENABLED,
          },
        }),
        ChannelsModule,
        OptionsModule,
        VersionsModule,
        IncidentsModule,
        AuditModule,
        PaymentMethodsModule,
      ],
      controllers: [StatusController],
      providers: [StatusService],
    };
  }
}
