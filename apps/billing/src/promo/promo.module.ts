import { Module } from '@nestjs/common';
import { PromoRedemptionsService } from './promo-redemptions.service';
import { PromoUsageRepository } from './promo-usage.repository';
import { PromoController } from './promo.controller';
import { PromoService } from './promo.service';

@Module({
  controllers: [PromoController],
  providers: [PromoService, PromoRedemptionsService, PromoUsageRepository],
  exports: [PromoRedemptionsService],
})
export class PromoModule {}
