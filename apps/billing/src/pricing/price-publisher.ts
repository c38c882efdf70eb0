import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { PricingService } from './pricing.service';

/** At start-up, puts every never-published price entry on billing.price, so relay's table is complete. */
@Injectable()
export class PricePublisher implements OnApplicationBootstrap {
  private readonly logger = new Logger(PricePublisher.name);

  constructor(private readonly pricing: PricingService) {}

  async onApplicationBootstrap(): Promise<void> {
    const published = await this.pricing.publishUnpublished();
    if (published > 0) this.logger.log(`published ${published} price entr${published === 1 ? 'y' : 'ies'}`);
  }
}
