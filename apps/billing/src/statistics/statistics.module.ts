import { Module } from '@nestjs/common';
import { OverviewService } from './overview.service';
import { StatisticsController } from './statistics.controller';
import { StatisticsRepository } from './statistics.repository';
import { StatisticsService } from './statistics.service';

@Module({
  controllers: [StatisticsController],
  providers: [StatisticsRepository, StatisticsService, OverviewService],
  exports: [StatisticsRepository],
})
export class StatisticsModule {}
