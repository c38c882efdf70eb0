import { Module } from '@nestjs/common';
import { StatisticsController } from './statistics.controller';
import { StatisticsRepository } from './statistics.repository';
import { StatisticsService } from './statistics.service';

@Module({
  controllers: [StatisticsController],
  providers: [StatisticsRepository, StatisticsService],
  exports: [StatisticsRepository],
})
export class StatisticsModule {}
