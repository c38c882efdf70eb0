import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  createTokenRequestSchema,
  ok,
  pageQuerySchema,
  TOKEN_PAGE_DEFAULT_SIZE,
  tokenSearchQuerySchema,
  updateTokenRequestSchema,
  type Envelope,
  type Page,
  type TokenGroupLimits,
  type TokenKey,
  type TokenView,
} from '@tollgate/contracts';
import { CurrentIdentity, type Identity, type Locale, RequestLocale } from '@tollgate/platform';
import { z } from 'zod';
import { message } from '../i18n/auth-messages';
import { parseRequest } from '../i18n/parse-request';
import { TokensService } from './tokens.service';

const pageQuery = pageQuerySchema(TOKEN_PAGE_DEFAULT_SIZE);
const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** new-api's /api/token calls, on the signed-in caller's own keys. */
@Controller('api/token')
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Get()
  async list(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<TokenView>>> {
    const { page, pageSize } = parseRequest(pageQuery, query, locale, 'token_field_invalid');
    return ok(await this.tokens.list(identity.userId, page, pageSize));
  }

  @Get('search')
  async search(
    @CurrentIdentity() identity: Identity,
    @Query() query: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<Page<TokenView>>> {
    const { page, pageSize } = parseRequest(pageQuery, query, locale, 'token_field_invalid');
    const { keyword } = parseRequest(tokenSearchQuerySchema, query, locale, 'token_field_invalid');
    return ok(await this.tokens.list(identity.userId, page, pageSize, keyword.trim()));
  }

  @Get('group_limits')
  async groupLimits(@CurrentIdentity() identity: Identity): Promise<Envelope<TokenGroupLimits>> {
    return ok(await this.tokens.groupLimits(identity.userId));
  }

  @Get(':id')
  async get(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<TokenView>> {
    return ok(await this.tokens.get(identity.userId, this.id(id, locale), locale));
  }

  @Post()
  @HttpCode(200)
  async create(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<TokenView>> {
    const request = parseRequest(createTokenRequestSchema, body, locale, 'token_field_invalid');
    return ok(await this.tokens.create(identity.userId, request, locale), message('token_created', locale));
  }

  @Put()
  async update(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<TokenView>> {
    const request = parseRequest(updateTokenRequestSchema, body, locale, 'token_field_invalid');
    return ok(await this.tokens.update(identity.userId, request, locale), message('token_updated', locale));
  }

  @Delete(':id')
  async delete(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.tokens.delete(identity.userId, this.id(id, locale), locale);
    return ok(null, message('token_deleted', locale));
  }

  @Post(':id/key')
  @HttpCode(200)
  async key(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<TokenKey>> {
    return ok(await this.tokens.key(identity.userId, this.id(id, locale), locale));
  }

  private id(raw: string, locale: Locale): number {
    return parseRequest(idParam, raw, locale, 'token_field_invalid');
  }
}
