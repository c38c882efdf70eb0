import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ok, pageQuerySchema, type Envelope, type Page } from '@tollgate/contracts';
import {
  CurrentIdentity,
  Public,
  RequestLocale,
  Role,
  Roles,
  type Identity,
  type Locale,
} from '@tollgate/platform';
import { z } from 'zod';
import {
  createVersionRequestSchema,
  updateVersionRequestSchema,
  type VersionView,
} from '@tollgate/contracts';
import { message } from '../i18n/messages';
import { VersionsService } from './versions.service';

const pageQuery = pageQuerySchema(20, 100);
const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** The changelog: `GET /api/versions` for everyone, changes for administrators. */
@Controller('api/versions')
export class VersionsController {
  constructor(private readonly versions: VersionsService) {}

  @Public()
  @Get()
  async list(@Query() query: unknown): Promise<Envelope<Page<VersionView>>> {
    const { page, pageSize } = pageQuery.parse(query);
    return ok(await this.versions.list(page, pageSize));
  }

  @Roles(Role.Admin)
  @Post()
  @HttpCode(200)
  async create(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<VersionView>> {
    return ok(
      await this.versions.create(identity, createVersionRequestSchema.parse(body), locale),
      message('version_created', locale),
    );
  }

  @Roles(Role.Admin)
  @Put()
  async update(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<VersionView>> {
    return ok(
      await this.versions.update(identity, updateVersionRequestSchema.parse(body), locale),
      message('version_updated', locale),
    );
  }

  @Roles(Role.Admin)
  @Delete(':id')
  async delete(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.versions.delete(identity, idParam.parse(id), locale);
    return ok(null, message('version_deleted', locale));
  }
}
