import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { auditRecorder, OutboxRelay, type AuditActor } from '@tollgate/persistence';
import type { IncidentSeverity, IncidentStatus, IncidentUpdate, StatusComponent } from '@tollgate/contracts';
import { Incident } from './incident.entity';

const auditIncident = auditRecorder('admin', 'incident');

export interface NewIncident {
  title: string;
  description: string;
  titleEn: string;
  descriptionEn: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  components: StatusComponent[];
  updates: IncidentUpdate[];
  startedAt: Date;
  resolvedAt: Date | null;
}

/** A change made to the loaded incident before it is saved. */
export type IncidentChange = (incident: Incident) => void;

/** The incidents table. */
@Injectable()
export class IncidentsRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  async page(page: number, pageSize: number): Promise<{ items: Incident[]; total: number }> {
    const [items, total] = await this.em
      .fork()
      .findAndCount(
        Incident,
        {},
        { orderBy: { startedAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize },
      );
    return { items, total };
  }

  /** Incidents still open, or resolved at or after `since`, newest start first. */
  async openOrResolvedSince(since: Date): Promise<Incident[]> {
    return this.em
      .fork()
      .find(
        Incident,
        { $or: [{ resolvedAt: null }, { resolvedAt: { $gte: since } }] },
        { orderBy: { startedAt: 'desc', id: 'desc' } },
      );
  }

  async create(input: NewIncident, actor: AuditActor): Promise<Incident> {
    const incident = await this.em.fork().transactional(async (tx) => {
      const now = new Date();
      const created = tx.create(Incident, { ...input, createdAt: now, updatedAt: now });
      await tx.flush();
      await auditIncident(tx, actor, 'incident.create', created.id, null, incidentAuditSnapshot(created));
      return created;
    });
    this.outbox.nudge();
    return incident;
  }

  /** Applies `change` under the row lock; an exception it throws rolls everything back. */
  async modify(id: number, change: IncidentChange, actor: AuditActor): Promise<Incident | null> {
    const incident = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Incident, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) return null;
      const before = incidentAuditSnapshot(found);
      change(found);
      found.updatedAt = new Date();
      await tx.flush();
      await auditIncident(tx, actor, 'incident.update', id, before, incidentAuditSnapshot(found));
      return found;
    });
    if (incident) this.outbox.nudge();
    return incident;
  }

  async delete(id: number, actor: AuditActor): Promise<boolean> {
    const deleted = await this.em.fork().transactional(async (tx) => {
      const found = await tx.findOne(Incident, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!found) return false;
      const before = incidentAuditSnapshot(found);
      await tx.nativeDelete(Incident, { id });
      await auditIncident(tx, actor, 'incident.delete', id, before, null);
      return true;
    });
    if (deleted) this.outbox.nudge();
    return deleted;
  }
}

/** What an operator edits; the timeline is summed up by its length (its texts are in the incident). */
function incidentAuditSnapshot(incident: Incident): Record<string, unknown> {
  return {
    title: incident.title,
    description: incident.description,
    title_en: incident.titleEn,
    description_en: incident.descriptionEn,
    status: incident.status,
    severity: incident.severity,
    components: incident.components,
    updates: incident.updates.length,
    started_at: incident.startedAt.toISOString(),
    resolved_at: incident.resolvedAt?.toISOString() ?? null,
  };
}
