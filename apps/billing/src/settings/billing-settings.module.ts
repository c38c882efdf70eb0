import { Global, Module } from '@nestjs/common';
import { BillingSettings } from './billing-settings';

/** The operators' settings, for every billing module that applies one. */
@Global()
@Module({ providers: [BillingSettings], exports: [BillingSettings] })
export class BillingSettingsModule {}
