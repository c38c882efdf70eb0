import { Injectable } from '@nestjs/common';
import { ErrorCode, INCIDENT_MAX_UPDATES, type Page } from '@tollgate/contracts';
import type { AuditActor } from '@tollgate/persistence';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';
import type {
  CreateIncidentRequest,
  IncidentUpdate,
  IncidentView,
  UpdateIncidentRequest,
} from './incident-requests';
import type { Incident } from './incident.entity';
import { IncidentsRepository } from './incidents.repository';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);
const fromSeconds = (value: number) => new Date(value * 1000);

/** The English texts go out only where the operators wrote them, so a reader falls back by absence. */
export const view = (incident: Incident): IncidentView => ({
  id: incident.id,
  title: incident.title,
  description: incident.description,
  ...(incident.titleEn ? { title_en: incident.titleEn } : {}),
  ...(incident.descriptionEn ? { description_en: incident.descriptionEn } : {}),
  status: incident.status,
  severity: incident.severity,
  components: incident.components,
  updates: incident.updates,
  started_at: seconds(incident.startedAt),
  resolved_at: seconds(incident.resolvedAt),
  created_time: seconds(incident.createdAt),
  updated_time: seconds(incident.updatedAt),
});

const notFound = (locale: Locale) => localizedException(ErrorCode.NotFound, 'incident_not_found', locale);
const resolvedWhileOpen = (locale: Locale) =>
  localizedException(ErrorCode.ValidationFailed, 'incident_resolved_while_open', locale);
const resolvedBeforeStart = (locale: Locale) =>
  localizedException(ErrorCode.ValidationFailed, 'incident_resolved_before_start', locale);
const tooManyUpdates = (locale: Locale) =>
  localizedException(ErrorCode.ValidationFailed, 'incident_too_many_updates', locale, {
    max: INCIDENT_MAX_UPDATES,
  });

/**
 * The timeline after the start moved from `oldStart` to `newStart`: the opening update, dated at the
 * start, moves with it (never past the next update, so the timeline stays in order).
 */
function withOpeningAt(updates: IncidentView['updates'], oldStart: number, newStart: number) {
  const [opening, ...rest] = updates;
  if (!opening || opening.created_at !== oldStart || newStart === oldStart) return updates;
  const at = rest.length > 0 ? Math.min(newStart, rest[0]!.created_at) : newStart;
  return [{ ...opening, created_at: at }, ...rest];
}

/** A timeline update with its English text only when there is one. */
function timelineUpdate(update: Omit<IncidentUpdate, 'text_en'>, textEn: string | undefined): IncidentUpdate {
  return textEn ? { ...update, text_en: textEn } : update;
}

/** The incident log: read by everyone, written by administrators; resolving stamps the time. */
@Injectable()
export class IncidentsService {
  constructor(private readonly incidents: IncidentsRepository) {}

  async list(page: number, pageSize: number): Promise<Page<IncidentView>> {
    const found = await this.incidents.page(page, pageSize);
    return { page, page_size: pageSize, total: found.total, items: found.items.map(view) };
  }

  async create(actor: AuditActor, request: CreateIncidentRequest, locale: Locale): Promise<IncidentView> {
    const now = new Date();
    const startedAt = request.started_at === undefined ? now : fromSeconds(request.started_at);
    if (request.resolved_at !== undefined && request.status !== 'resolved') throw resolvedWhileOpen(locale);
    const resolvedAt =
      request.status !== 'resolved'
        ? null
        : request.resolved_at === undefined
          ? now
          : fromSeconds(request.resolved_at);
    if (resolvedAt && resolvedAt < startedAt) throw resolvedBeforeStart(locale);
    const incident = await this.incidents.create(
      {
        title: request.title,
        description: request.description,
        titleEn: request.title_en,
        descriptionEn: request.description_en,
        status: request.status,
        severity: request.severity,
        components: request.components,
        // The timeline opens when the incident started, in its first status.
        updates: [
          timelineUpdate(
            { status: request.status, text: request.update ?? '', created_at: seconds(startedAt) },
            request.update_en,
          ),
        ],
        startedAt,
        resolvedAt,
      },
      actor,
    );
    return view(incident);
  }

  async update(
    actor: AuditActor,
    id: number,
    changes: UpdateIncidentRequest,
    locale: Locale,
  ): Promise<IncidentView> {
    const incident = await this.incidents.modify(
      id,
      (found) => {
        const now = new Date();
        const status = changes.status ?? found.status;
        if (changes.resolved_at !== undefined && status !== 'resolved') throw resolvedWhileOpen(locale);
        if (changes.title !== undefined) found.title = changes.title;
        if (changes.description !== undefined) found.description = changes.description;
        if (changes.title_en !== undefined) found.titleEn = changes.title_en;
        if (changes.description_en !== undefined) found.descriptionEn = changes.description_en;
        if (changes.severity !== undefined) found.severity = changes.severity;
        if (changes.started_at !== undefined) {
          found.updates = withOpeningAt(found.updates, seconds(found.startedAt), changes.started_at);
          found.startedAt = fromSeconds(changes.started_at);
        }
        if (changes.components !== undefined) found.components = changes.components;
        if (status !== 'resolved') found.resolvedAt = null;
        else if (changes.resolved_at !== undefined) found.resolvedAt = fromSeconds(changes.resolved_at);
        else if (found.resolvedAt === null) found.resolvedAt = now;
        if (found.resolvedAt && found.resolvedAt < found.startedAt) throw resolvedBeforeStart(locale);
        if (status !== found.status || changes.update || changes.update_en) {
          if (found.updates.length >= INCIDENT_MAX_UPDATES) throw tooManyUpdates(locale);
          // Resolving after the fact dates the resolution's update at the resolution.
          const at =
            status !== found.status && status === 'resolved' && found.resolvedAt ? found.resolvedAt : now;
          found.updates = [
            ...found.updates,
            timelineUpdate(
              { status, text: changes.update ?? '', created_at: seconds(at) },
              changes.update_en,
            ),
          ];
        }
        found.status = status;
      },
      actor,
    );
    if (!incident) throw notFound(locale);
    return view(incident);
  }

  async delete(actor: AuditActor, id: number, locale: Locale): Promise<void> {
    if (!(await this.incidents.delete(id, actor))) throw notFound(locale);
  }
}
