import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ACCOUNT_SET_QUOTA_CALL,
  accountSetQuotaRequest,
  ok,
  type AccountSetQuotaResult,
  type Envelope,
} from '@tollgate/contracts';
import { ServiceOnly } from '@tollgate/platform';
import { z } from 'zod';
import { AdjustmentsService } from './adjustments.service';

const userIdParams = z.object({ userId: z.coerce.number().int().positive() });

/** Service-to-service only: auth's user management sets balances through it. */
@Controller()
export class AdjustmentsController {
  constructor(private readonly adjustments: AdjustmentsService) {}

  @ServiceOnly(ACCOUNT_SET_QUOTA_CALL.audience)
  @HttpCode(200)
  @Post(ACCOUNT_SET_QUOTA_CALL.path)
  async setQuota(@Param() params: unknown, @Body() body: unknown): Promise<Envelope<AccountSetQuotaResult>> {
    const { userId } = userIdParams.parse(params);
    return ok(await this.adjustments.setQuota(userId, accountSetQuotaRequest.parse(body)));
  }
}
