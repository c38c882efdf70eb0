import { Body, Controller, Get, Header, Param, Put, Req } from '@nestjs/common';
import {
  groupRatioUpdateSchema,
  modelPriceUpdateSchema,
  ok,
  pricingPathSchemas,
  type Envelope,
  type ModelPricing,
  type PricingResponse,
} from '@tollgate/contracts';
import {
  CurrentIdentity,
  identityOf,
  Public,
  RequestLocale,
  Role,
  Roles,
  type Identity,
  type Locale,
} from '@tollgate/platform';
import type { FastifyRequest } from 'fastify';
import { PricingService } from './pricing.service';

@Controller('api/pricing')
export class PricingController {
  constructor(private readonly pricing: PricingService) {}

  /**
   * Public; a signed-in caller's identity (the gateway still sends it here) widens what it lists, so
   * no shared cache may keep one caller's answer for another.
   */
  @Public()
  @Get()
  @Header('cache-control', 'private, no-cache')
  catalogue(@Req() request: FastifyRequest, @RequestLocale() locale: Locale): Promise<PricingResponse> {
    return this.pricing.catalogue(identityOf(request), locale);
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
