import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  createUserRequestSchema,
  manageUserRequestSchema,
  ok,
  pageQuerySchema,
  Role,
  TOKEN_PAGE_DEFAULT_SIZE,
  updateUserRequestSchema,
  USER_PAGE_DEFAULT_SIZE,
  userIdParamSchema,
  userFilterQuerySchema,
  userSearchQuerySchema,
  type AdminUserView,
  type Envelope,
  type Page,
  type TokenView,
} from '@tollgate/contracts';
import { CurrentIdentity, Roles, type Identity, type Locale, RequestLocale } from '@tollgate/platform';
import { message } from '../i18n/auth-messages';
import { parseRequest } from '../i18n/parse-request';
import { TokensService } from '../tokens/tokens.service';
import { UserAdminService } from './user-admin.service';

const pageQuery = pageQuerySchema(USER_PAGE_DEFAULT_SIZE);
const tokenPageQuery = pageQuerySchema(TOKEN_PAGE_DEFAULT_SIZE, 100);

/** new-api's user admin calls, for admins and root. */
@Controller('api/user')
@Roles(Role.Admin)
export class UserAdminController {
  constructor(
    private readonly admin: UserAdminService,
    private readonly tokens: TokensService,
  ) {}

  @Get()
  async list(
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<AdminUserView>>> {
    const { page, pageSize } = parseRequest(pageQuery, query, locale, 'user_field_invalid');
    const filter = parseRequest(userFilterQuerySchema, query, locale, 'user_field_invalid');
    return ok(await this.admin.list(page, pageSize, undefined, filter));
  }

  @Get('search')
  async search(
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<AdminUserView>>> {
    const { page, pageSize } = parseRequest(pageQuery, query, locale, 'user_field_invalid');
    const { keyword } = parseRequest(userSearchQuerySchema, query, locale, 'user_field_invalid');
    const filter = parseRequest(userFilterQuerySchema, query, locale, 'user_field_invalid');
    return ok(await this.admin.list(page, pageSize, keyword.trim() || undefined, filter));
  }

  /** A user's API keys, masked as the owner sees them (for the user's page in the admin area). */
  @Get(':id/tokens')
  async tokensOf(
    @Param('id') id: string,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<TokenView>>> {
    const userId = parseRequest(userIdParamSchema, id, locale, 'user_not_found');
    const { page, pageSize } = parseRequest(tokenPageQuery, query, locale, 'user_field_invalid');
    await this.admin.get(userId, locale);
    return ok(await this.tokens.list(userId, page, pageSize));
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
