import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ADMIN_PAYMENT_PAGE_DEFAULT_SIZE,
  adminPaymentListQuerySchema,
  ok,
  pageQuerySchema,
  paymentRefundRequestSchema,
  type AdminPaymentView,
  type Envelope,
  type Page,
} from '@tollgate/contracts';
import { CurrentIdentity, RequestLocale, Role, Roles, type Identity, type Locale } from '@tollgate/platform';
import { z } from 'zod';
import { message } from '../i18n/messages';
import { AdminPaymentsService } from './admin-payments.service';
import { PaymentRefundsService } from './payment-refunds.service';

const pageQuery = pageQuerySchema(ADMIN_PAYMENT_PAGE_DEFAULT_SIZE, 100);
const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** Every user's payments for operators, and refunds (the gateway lets only admins through). */
@Controller('api/payment')
@Roles(Role.Admin)
export class AdminPaymentsController {
  constructor(
    private readonly payments: AdminPaymentsService,
    private readonly refunds: PaymentRefundsService,
  ) {}

  @Get()
  async list(@Query() query: unknown): Promise<Envelope<Page<AdminPaymentView>>> {
    const { page, pageSize } = pageQuery.parse(query);
    return ok(await this.payments.list(adminPaymentListQuerySchema.parse(query), page, pageSize));
  }

  @Get(':id')
  async get(@Param('id') id: string, @RequestLocale() locale: Locale): Promise<Envelope<AdminPaymentView>> {
    return ok(await this.payments.get(idParam.parse(id), locale));
  }

  @HttpCode(200)
  @Post(':id/refund')
  async refund(
    @CurrentIdentity() caller: Identity,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<AdminPaymentView>> {
    const outcome = await this.refunds.refundByOperator(
      caller,
      idParam.parse(id),
      paymentRefundRequestSchema.parse(body),
      locale,
    );
    const done = outcome.awaitingProvider
      ? 'refund_awaiting_provider'
      : outcome.changed
        ? 'refund_done'
        : 'refund_repeated';
    return ok(await this.payments.view(outcome.payment, locale), message(done, locale));
  }
}
