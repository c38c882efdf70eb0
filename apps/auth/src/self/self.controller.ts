import { Body, Controller, Delete, Get, Headers, Put, Res } from '@nestjs/common';
import {
  ok,
  updateSelfRequestSchema,
  updateSettingRequestSchema,
  type Envelope,
  type SelfUser,
  type SessionUser,
  type UserSettings,
} from '@tollgate/contracts';
import { CurrentIdentity, type Identity, type Locale, RequestLocale } from '@tollgate/platform';
import type { FastifyReply } from 'fastify';
import { OverHttps } from '../http/request-meta.decorators';
import { message } from '../i18n/auth-messages';
import { parseRequest } from '../i18n/parse-request';
import { clearedSessionCookie, sessionCookie, sessionSecretFrom } from '../sessions/session-cookie';
import { ProfileService } from './profile.service';
import { SelfService } from './self.service';
import { SettingsService } from './settings.service';

@Controller('api/user')
export class SelfController {
  constructor(
    private readonly selfService: SelfService,
    private readonly profile: ProfileService,
    private readonly settings: SettingsService,
  ) {}

  @Get('self')
  async get(
    @CurrentIdentity() identity: Identity,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<SelfUser>> {
    return ok(await this.selfService.self(identity.userId, locale));
  }

  /** A new password ends the user's other sessions; a browser that changed it gets a fresh session cookie. */
  @Put('self')
  async update(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @Headers('cookie') cookies: string | undefined,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<SessionUser>> {
    const request = parseRequest(updateSelfRequestSchema, body, locale, 'user_field_invalid');
    const currentSession = identity.via === 'session' ? sessionSecretFrom(cookies) : undefined;
    const change = await this.profile.update(identity.userId, request, locale, currentSession);
    if (change.session) {
      void reply.header(
        'set-cookie',
        sessionCookie(change.session.secret, change.session.maxAgeSeconds, https),
      );
    }
    return ok(change.user, message(change.message, locale));
  }

  /** Soft delete of the caller's own account; its sessions stop resolving and the cookie is cleared. */
  @Delete('self')
  async delete(
    @CurrentIdentity() identity: Identity,
    @OverHttps() https: boolean,
    @RequestLocale() locale: Locale,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<null>> {
    await this.profile.delete(identity.userId, locale);
    void reply.header('set-cookie', clearedSessionCookie(https));
    return ok(null, message('account_deleted', locale));
  }

  @Put('setting')
  async updateSetting(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<UserSettings>> {
    const request = parseRequest(updateSettingRequestSchema, body, locale, 'setting_invalid');
    return ok(
      await this.settings.update(identity.userId, request, locale),
      message('settings_saved', locale),
    );
  }
}
