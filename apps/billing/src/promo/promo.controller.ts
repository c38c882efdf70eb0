import { Body, Controller, HttpCode, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  fail,
  ok,
  pageQuerySchema,
  promoCreateSchema,
  promoIdParamsSchema,
  promoUpdateSchema,
  promoValidateRequestSchema,
  type Envelope,
  type Page,
  type Promo,
  type PromoValidation,
} from '@tollgate/contracts';
import { CurrentIdentity, RequestLocale, Role, Roles, type Identity, type Locale } from '@tollgate/platform';
import { PromoGuessLimit } from './promo-guess-limit';
import { PromoService } from './promo.service';

const promoPageQuery = pageQuerySchema(20, 100);

@Controller('api/promo')
export class PromoController {
  constructor(
    private readonly promos: PromoService,
    private readonly guesses: PromoGuessLimit,
  ) {}

  @Roles(Role.Admin)
  @Get()
  async list(@Query() query: unknown): Promise<Envelope<Page<Promo>>> {
    const { page, pageSize } = promoPageQuery.parse(query);
    return ok(await this.promos.list(page, pageSize));
  }

  @Roles(Role.Admin)
  @HttpCode(200)
  @Post()
  async create(
    @CurrentIdentity() caller: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Promo>> {
    return ok(await this.promos.create(caller, promoCreateSchema.parse(body), locale));
  }

  @Roles(Role.Admin)
  @Put(':id')
  async update(
    @CurrentIdentity() caller: Identity,
    @Param() params: unknown,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Promo>> {
    const { id } = promoIdParamsSchema.parse(params);
    return ok(await this.promos.update(caller, id, promoUpdateSchema.parse(body), locale));
  }

  @Roles(Role.Admin)
  @Delete(':id')
  async remove(
    @CurrentIdentity() caller: Identity,
    @Param() params: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.promos.remove(caller, promoIdParamsSchema.parse(params).id, locale);
    return ok(null);
  }

  /** An unusable code is an answer, not an error: `success: false` with the message the web shows. */
  @HttpCode(200)
  @Post('validate')
  async validate(
    @Body() body: unknown,
    @CurrentIdentity() caller: Identity,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<PromoValidation>> {
    const { code } = promoValidateRequestSchema.parse(body);
    const validation = await this.guesses.attempt(
      caller.userId,
      locale,
      () => this.promos.validate(code, caller.userId, locale),
      (result) => result.valid,
    );
    return validation.valid
      ? ok(validation, validation.description)
      : { ...fail(validation.description), data: validation };
  }
}
