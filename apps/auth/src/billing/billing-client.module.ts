import { Module } from '@nestjs/common';
import { BillingQuotaClient } from './billing-quota.client';

@Module({ providers: [BillingQuotaClient], exports: [BillingQuotaClient] })
export class BillingClientModule {}
