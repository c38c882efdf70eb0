import { Module } from '@nestjs/common';
import { PromoGuessLimit } from './promo-guess-limit';
import { PromoRedemptionsService } from './promo-redemptions.service';
import { PromoUsageRepository } from './promo-usage.repository';
import { PromoController } from './promo.controller';
import { PromoService } from './promo.service';

@Module({
  controllers: [PromoController],
  providers: [PromoService, PromoRedemptionsService, PromoUsageRepository, PromoGuessLimit],
  exports: [PromoRedemptionsService, PromoGuessLimit],
})
export class PromoModule {}
