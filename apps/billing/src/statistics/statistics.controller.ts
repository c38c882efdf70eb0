import { Controller, Get, Query } from '@nestjs/common';
import {
  adminStatisticsQuerySchema,
  ok,
  statisticsQuerySchema,
  type AdminOverview,
  type DailyModelUsage,
  type Envelope,
} from '@tollgate/contracts';
import { CurrentIdentity, Role, Roles, type Identity } from '@tollgate/platform';
import { OverviewService } from './overview.service';
import { StatisticsService } from './statistics.service';

@Controller('api/statistics')
export class StatisticsController {
  constructor(
    private readonly statistics: StatisticsService,
    private readonly overviews: OverviewService,
  ) {}

  /** The admin overview: active users and errors for today, 7 and 30 Moscow days, top users, billing's lag. */
  @Roles(Role.Admin)
  @Get('overview')
  async overview(): Promise<Envelope<AdminOverview>> {
    return ok(await this.overviews.overview());
  }

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
