import { Injectable } from '@nestjs/common';
import { ErrorCode, type Page } from '@tollgate/contracts';
import { AppException } from '@tollgate/platform';
import type { CreateIncidentRequest, IncidentView, UpdateIncidentRequest } from './incident-requests';
import type { Incident } from './incident.entity';
import { IncidentsRepository } from './incidents.repository';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);
const fromSeconds = (value: number) => new Date(value * 1000);

const view = (incident: Incident): IncidentView => ({
  id: incident.id,
  title: incident.title,
  description: incident.description,
  status: incident.status,
  severity: incident.severity,
  started_at: seconds(incident.startedAt),
  resolved_at: seconds(incident.resolvedAt),
  created_time: seconds(incident.createdAt),
  updated_time: seconds(incident.updatedAt),
});

const notFound = () => new AppException(ErrorCode.NotFound, 'Incident not found');

/** The incident log: read by everyone, written by administrators; resolving stamps the time. */
@Injectable()
export class IncidentsService {
  constructor(private readonly incidents: IncidentsRepository) {}

  async list(page: number, pageSize: number): Promise<Page<IncidentView>> {
    const found = await this.incidents.page(page, pageSize);
    return { page, page_size: pageSize, total: found.total, items: found.items.map(view) };
  }

  async create(request: CreateIncidentRequest): Promise<IncidentView> {
    const now = new Date();
    const incident = await this.incidents.create({
      title: request.title,
      description: request.description,
      status: request.status,
      severity: request.severity,
      startedAt: request.started_at === undefined ? now : fromSeconds(request.started_at),
      resolvedAt: request.status === 'resolved' ? now : null,
    });
    return view(incident);
  }

  async update(id: number, changes: UpdateIncidentRequest): Promise<IncidentView> {
    const incident = await this.incidents.modify(id, (found) => {
      if (changes.title !== undefined) found.title = changes.title;
      if (changes.description !== undefined) found.description = changes.description;
      if (changes.severity !== undefined) found.severity = changes.severity;
      if (changes.started_at !== undefined) found.startedAt = fromSeconds(changes.started_at);
      if (changes.status !== undefined) {
        if (changes.status === 'resolved' && found.resolvedAt === null) found.resolvedAt = new Date();
        if (changes.status !== 'resolved') found.resolvedAt = null;
        found.status = changes.status;
      }
    });
    if (!incident) throw notFound();
    return view(incident);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.incidents.delete(id))) throw notFound();
  }
}
