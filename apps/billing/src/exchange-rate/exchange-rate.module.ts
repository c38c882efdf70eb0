import { Module } from '@nestjs/common';
import { CbrClient } from './cbr.client';
import { ExchangeRateController } from './exchange-rate.controller';
import { ExchangeRateRefresher } from './exchange-rate.refresher';
import { ExchangeRateService } from './exchange-rate.service';

@Module({
  controllers: [ExchangeRateController],
  providers: [CbrClient, ExchangeRateService, ExchangeRateRefresher],
  exports: [ExchangeRateService],
})
export class ExchangeRateModule {}
