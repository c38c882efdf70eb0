import { Module, type DynamicModule } from '@nestjs/common';
import { ServiceInfrastructureModule, type ServiceRuntime } from '@tollgate/runtime';
import { ReadModelsController } from './read-models/read-models.controller';
import { ReadModelsLifecycle } from './read-models/read-models.lifecycle';
import { ReadModelsService } from './read-models/read-models.service';

@Module({})
export class RelayModule {
  static register(runtime: ServiceRuntime): DynamicModule {
    return {
      module: RelayModule,
      imports: [ServiceInfrastructureModule.forRoot({ runtime })],
      controllers: [ReadModelsController],
      providers: [ReadModelsService, ReadModelsLifecycle],
    };
  }
}
