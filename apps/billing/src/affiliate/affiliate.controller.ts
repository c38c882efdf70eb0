import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  affiliateTransferRequestSchema,
  ok,
  type AffiliateSummary,
  type AffiliateTransferResult,
  type Envelope,
} from '@tollgate/contracts';
import { CurrentIdentity, RequestLocale, type Identity, type Locale } from '@tollgate/platform';
import { AffiliateService } from './affiliate.service';

@Controller('api/user/aff_transfer')
export class AffiliateController {
  constructor(private readonly affiliate: AffiliateService) {}

  @Get()
  async summary(@CurrentIdentity() caller: Identity): Promise<Envelope<AffiliateSummary>> {
    return ok(await this.affiliate.summary(caller.userId));
  }

  @HttpCode(200)
  @Post()
  async transfer(
    @Body() body: unknown,
    @CurrentIdentity() caller: Identity,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<AffiliateTransferResult>> {
    const { quota } = affiliateTransferRequestSchema.parse(body);
    return ok(await this.affiliate.transfer(caller.userId, quota, locale));
  }
}
