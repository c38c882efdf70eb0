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
import { message } from '../i18n/messages';
import {
  createIncidentRequestSchema,
  updateIncidentRequestSchema,
  type IncidentView,
} from './incident-requests';
import { IncidentsService } from './incidents.service';

const pageQuery = pageQuerySchema(20, 100);
const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** The incident log: `GET /api/incident/` for everyone (newest first), changes for administrators. */
@Controller('api/incident')
export class IncidentsController {
  constructor(private readonly incidents: IncidentsService) {}

  @Public()
  @Get()
  async list(@Query() query: unknown): Promise<Envelope<Page<IncidentView>>> {
    const { page, pageSize } = pageQuery.parse(query);
    return ok(await this.incidents.list(page, pageSize));
  }

  @Roles(Role.Admin)
  @Post()
  @HttpCode(200)
  async create(
    @CurrentIdentity() identity: Identity,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<IncidentView>> {
    return ok(
      await this.incidents.create(identity, createIncidentRequestSchema.parse(body), locale),
      message('incident_created', locale),
    );
  }

  @Roles(Role.Admin)
  @Put(':id')
  async update(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @Body() body: unknown,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<IncidentView>> {
    const request = updateIncidentRequestSchema.parse(body);
    const updated = await this.incidents.update(identity, idParam.parse(id), request, locale);
    return ok(updated, message('incident_updated', locale));
  }

  @Roles(Role.Admin)
  @Delete(':id')
  async delete(
    @CurrentIdentity() identity: Identity,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<Envelope<null>> {
    await this.incidents.delete(identity, idParam.parse(id), locale);
    return ok(null, message('incident_deleted', locale));
  }
}
