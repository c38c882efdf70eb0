import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HealthRegistry } from '@tollgate/platform';
import { ReadModelsService } from './read-models.service';

/** Opens the tables at start-up without waiting for them; the service is ready once they caught up. */
@Injectable()
export class ReadModelsLifecycle implements OnModuleInit {
  constructor(
    private readonly readModels: ReadModelsService,
    private readonly health: HealthRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.readModels.open();
    this.health.registerReadinessCheck('read-models', () => {
      if (!this.readModels.isCaughtUp())
        throw new Error('read models are still catching up with their topics');
    });
  }
}
