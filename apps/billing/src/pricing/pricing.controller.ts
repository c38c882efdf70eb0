import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import {
  groupRatioUpdateSchema,
  modelPriceUpdateSchema,
  ok,
  pricingPathSchemas,
  type Envelope,
  type ModelPricing,
  type PricingResponse,
} from '@tollgate/contracts';
import { CurrentIdentity, Public, Role, Roles, type Identity } from '@tollgate/platform';
import { PricingService } from './pricing.service';

@Controller('api/pricing')
export class PricingController {
  constructor(private readonly pricing: PricingService) {}

  @Public()
  @Get()
  catalogue(): Promise<PricingResponse> {
    return this.pricing.catalogue();
  }

  @Roles(Role.Admin)
  @Put('models/:model')
  async setModelPrice(
    @CurrentIdentity() caller: Identity,
    @Param() params: unknown,
    @Body() body: unknown,
  ): Promise<Envelope<ModelPricing>> {
    const { model } = pricingPathSchemas.model.parse(params);
    return ok(await this.pricing.setModelPrice(caller, model, modelPriceUpdateSchema.parse(body)));
  }

  @Roles(Role.Admin)
  @Put('groups/:group')
  async setGroupRatio(
    @CurrentIdentity() caller: Identity,
    @Param() params: unknown,
    @Body() body: unknown,
  ): Promise<Envelope<{ group: string; ratio: number }>> {
    const { group } = pricingPathSchemas.group.parse(params);
    return ok(await this.pricing.setGroupRatio(caller, group, groupRatioUpdateSchema.parse(body)));
  }
}
