import { Controller, Get, Query } from '@nestjs/common';
import {
  adminStatisticsQuerySchema,
  ok,
  statisticsQuerySchema,
  type DailyModelUsage,
  type Envelope,
} from '@tollgate/contracts';
import { CurrentIdentity, Role, Roles, type Identity } from '@tollgate/platform';
import { StatisticsService } from './statistics.service';

@Controller('api/statistics')
export class StatisticsController {
  constructor(private readonly statistics: StatisticsService) {}

  @Get('self')
  async self(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
  ): Promise<Envelope<DailyModelUsage[]>> {
    const request = statisticsQuerySchema.parse(query);
    return ok(
      await this.statistics.daily(request, {
        userId: identity.userId,
        tokenId: request.token_id,
      }),
    );
  }

  @Roles(Role.Admin)
  @Get()
  async all(@Query() query: unknown): Promise<Envelope<DailyModelUsage[]>> {
    const request = adminStatisticsQuerySchema.parse(query);
    return ok(
      await this.statistics.daily(request, {
        userId: request.user_id,
        tokenId: request.token_id,
      }),
    );
  }
}
