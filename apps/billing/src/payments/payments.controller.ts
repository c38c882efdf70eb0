import { Body, Controller, HttpCode, Get, Param, Post, Query } from '@nestjs/common';
import {
  ok,
  pageQuerySchema,
  paymentCreateRequestSchema,
  type Envelope,
  type Page,
  type PaymentCreated,
  type PaymentLogItem,
} from '@tollgate/contracts';
import { CurrentIdentity, Public, RequestLocale, type Identity, type Locale } from '@tollgate/platform';
import { z } from 'zod';
import { PaymentWebhooksService, type WebhookOutcome } from './payment-webhooks.service';
import { PaymentsService } from './payments.service';

const paymentLogsQuery = pageQuerySchema(20, 100);
const webhookParams = z.object({ provider: z.enum(['yookassa', 'crypto']) });

@Controller('api/user/payment')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly webhooks: PaymentWebhooksService,
  ) {}

  @HttpCode(200)
  @Post()
  async create(
    @Body() body: unknown,
    @CurrentIdentity() caller: Identity,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<PaymentCreated>> {
    return ok(await this.payments.create(caller.userId, paymentCreateRequestSchema.parse(body), locale));
  }

  @Get('logs')
  async logs(
    @Query() query: unknown,
    @CurrentIdentity() caller: Identity,
  ): Promise<Envelope<Page<PaymentLogItem>>> {
    const { page, pageSize } = paymentLogsQuery.parse(query);
    return ok(await this.payments.logs(caller.userId, page, pageSize));
  }

  /** Called by the providers, not by users: trusted only through PaymentWebhooksService's checks. */
  @Public()
  @HttpCode(200)
  @Post('webhook/:provider')
  async webhook(@Param() params: unknown, @Body() body: unknown): Promise<Envelope<WebhookOutcome>> {
    return ok(await this.webhooks.handle(webhookParams.parse(params).provider, body));
  }
}
