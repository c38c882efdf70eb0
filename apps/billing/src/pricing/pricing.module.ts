import { Module } from '@nestjs/common';
import { PricePublisher } from './price-publisher';
import { PricingController } from './pricing.controller';
import { PricingService } from './pricing.service';

@Module({
  controllers: [PricingController],
  providers: [PricingService, PricePublisher],
})
export class PricingModule {}
