import { Module } from '@nestjs/common';
import { PricePublisher } from './price-publisher';
import { PricingController } from './pricing.controller';
import { PricingService } from './pricing.service';
import { ServedModels } from './served-models';

@Module({
  controllers: [PricingController],
  providers: [PricingService, PricePublisher, ServedModels],
})
export class PricingModule {}
