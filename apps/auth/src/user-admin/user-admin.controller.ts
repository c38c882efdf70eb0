import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  createUserRequestSchema,
  manageUserRequestSchema,
  ok,
  pageQuerySchema,
  Role,
  updateUserRequestSchema,
  USER_PAGE_DEFAULT_SIZE,
  userIdParamSchema,
  userSearchQuerySchema,
  type AdminUserView,
  type Envelope,
  type Page,
} from '@tollgate/contracts';
import { CurrentIdentity, Roles, type Identity } from '@tollgate/platform';
import { message } from '../i18n/auth-messages';
import type { Locale } from '../i18n/locale';
import { parseRequest } from '../i18n/parse-request';
import { RequestLocale } from '../i18n/request-locale.decorator';
import { UserAdminService } from './user-admin.service';

const pageQuery = pageQuerySchema(USER_PAGE_DEFAULT_SIZE);

/** new-api's user admin calls, for admins and root. */
@Controller('api/user')
@Roles(Role.Admin)
export class UserAdminController {
  constructor(private readonly admin: UserAdminService) {}

  @Get()
  async list(
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<AdminUserView>>> {
    const { page, pageSize } = parseRequest(pageQuery, query, locale, 'user_field_invalid');
    return ok(await this.admin.list(page, pageSize));
  }

  @Get('search')
  async search(
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<AdminUserView>>> {
    const { page, pageSize } = parseRequest(pageQuery, query, locale, 'user_field_invalid');
    const { keyword } = parseRequest(userSearchQuerySchema, query, locale, 'user_field_invalid');
    return ok(await this.admin.list(page, pageSize, keyword.trim() || undefined));
  }

  @Get(':id')
  async get(@Param('id') id: string, @RequestLocale() locale: Locale): Promise<Envelope<AdminUserView>> {
    return ok(await this.admin.get(parseRequest(userIdParamSchema, id, locale, 'user_not_found'), locale));
  }

  @Post()
  @HttpCode(200)
  async create(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<AdminUserView>> {
    const request = parseRequest(createUserRequestSchema, body, locale, 'register_fields_required');
    return ok(await this.admin.create(identity, request, locale), message('user_created', locale));
  }

  @Put()
  async update(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<AdminUserView>> {
    const request = parseRequest(updateUserRequestSchema, body, locale, 'user_field_invalid');
    return ok(await this.admin.update(identity, request, locale), message('user_updated', locale));
  }

  @Delete(':id')
  async delete(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.admin.delete(identity, parseRequest(userIdParamSchema, id, locale, 'user_not_found'), locale);
    return ok(null, message('user_deleted', locale));
  }

  @Post('manage')
  @HttpCode(200)
  async manage(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<AdminUserView>> {
    const request = parseRequest(manageUserRequestSchema, body, locale, 'user_action_invalid');
    return ok(await this.admin.manage(identity, request, locale), message('user_updated', locale));
  }
}
