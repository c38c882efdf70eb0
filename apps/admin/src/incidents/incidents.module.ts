import { Module } from '@nestjs/common';
import { StatusPageController } from '../status/status-page.controller';
import { StatusPageService } from '../status/status-page.service';
import { IncidentsController } from './incidents.controller';
import { IncidentsRepository } from './incidents.repository';
import { IncidentsService } from './incidents.service';

/** The incident log and the public status page computed from it. */
@Module({
  controllers: [IncidentsController, StatusPageController],
  providers: [IncidentsRepository, IncidentsService, StatusPageService],
})
export class IncidentsModule {}
