import { Body, Controller, Get, Put } from '@nestjs/common';
import { ok, type ConfiguredSecrets, type Envelope, type SettingKey } from '@tollgate/contracts';
import {
  CurrentIdentity,
  InjectServiceConfig,
  RequestLocale,
  Role,
  Roles,
  type Identity,
  type Locale,
} from '@tollgate/platform';
import { updateOptionRequestSchema, type OptionView } from '@tollgate/contracts';
import type { AdminConfig } from '../config';
import { message } from '../i18n/messages';
import { BillingPaymentMethods } from '../status/billing-payment-methods';
import { configuredSettings } from './configured-settings';
import { OptionsService } from './options.service';

/** new-api's /api/option/: root only (the gateway checks the role too). */
@Roles(Role.Root)
@Controller('api/option')
export class OptionsController {
  constructor(
    private readonly options: OptionsService,
    @InjectServiceConfig() private readonly config: AdminConfig,
    private readonly paymentMethods: BillingPaymentMethods,
  ) {}

  @Get()
  async list(): Promise<Envelope<OptionView[]>> {
    return ok(await this.options.list());
  }

  /** Which secrets the configuration holds (never their values): the settings screen shows "set" or "not set". */
  @Get('secrets')
  secrets(): Envelope<ConfiguredSecrets> {
    return ok({
      github_client_secret: this.config.GITHUB_CLIENT_SECRET !== '',
      google_client_secret: this.config.GOOGLE_CLIENT_SECRET !== '',
      discord_client_secret: this.config.DISCORD_CLIENT_SECRET !== '',
    });
  }

  /** What each setting is while unset (configuredSettings): the settings screen shows it beside "as configured". */
  @Get('configured')
  configured(): Envelope<Partial<Record<SettingKey, string>>> {
    return ok(configuredSettings(this.config, this.paymentMethods.current()));
  }

  @Put()
  async set(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<OptionView>> {
    return ok(
      await this.options.set(identity, updateOptionRequestSchema.parse(body), locale),
      message('option_saved', locale),
    );
  }
}
