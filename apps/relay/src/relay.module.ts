import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { ChannelBreakersController } from './channel-test/channel-breakers.controller';
import { ChannelTestController } from './channel-test/channel-test.controller';
import { ReadModelsController } from './read-models/read-models.controller';
import { ReadModelsLifecycle } from './read-models/read-models.lifecycle';
import { ReadModelsService } from './read-models/read-models.service';
import { RelayRuntime } from './relay-runtime';
import { relayUpstreamProviders } from './relay-upstream.providers';

@Module({})
export class RelayModule {
  static register(runtime: ServiceRuntime): DynamicModule {
    return {
      module: RelayModule,
      imports: [ServiceInfrastructureModule.forRoot({ runtime })],
      controllers: [ReadModelsController, ChannelTestController, ChannelBreakersController],
      providers: [...relayUpstreamProviders, ReadModelsService, ReadModelsLifecycle, RelayRuntime],
    };
  }
}
