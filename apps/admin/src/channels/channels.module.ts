import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@tollgate/platform';
import type { AdminConfig } from '../config';
import { ChannelAutoEnableJob } from './channel-auto-enable.job';
import { ChannelKeySealer } from './channel-key';
import { ChannelModelsPublisher } from './channel-models-publisher';
import { ChannelStatusController } from './channel-status.controller';
import { ChannelUsageConsumer } from './channel-usage.consumer';
import { ChannelUsageRepository } from './channel-usage.repository';
import { ChannelsController } from './channels.controller';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';
import { RelayChannelBreakers } from './relay-channel-breakers';
import { RelayChannelModels } from './relay-channel-models';
import { RelayChannelTester } from './relay-channel-tester';

@Module({
  controllers: [ChannelsController, ChannelStatusController, ChannelUsageConsumer],
  providers: [
    {
      provide: ChannelKeySealer,
      useFactory: (config: AdminConfig) => new ChannelKeySealer(config.TOLLGATE_ENCRYPTION_KEY),
      inject: [SERVICE_CONFIG],
    },
    RelayChannelTester,
    RelayChannelModels,
    RelayChannelBreakers,
    ChannelsRepository,
    ChannelsService,
    ChannelAutoEnableJob,
    ChannelModelsPublisher,
    ChannelUsageRepository,
  ],
})
export class ChannelsModule {}
