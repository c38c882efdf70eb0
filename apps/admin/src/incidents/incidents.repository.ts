import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { IncidentSeverity, IncidentStatus, IncidentUpdate, StatusComponent } from '@tollgate/contracts';
import { Incident } from './incident.entity';

export interface NewIncident {
  title: string;
  description: string;
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
  constructor(private readonly em: EntityManager) {}

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

  async create(input: NewIncident): Promise<Incident> {
    const em = this.em.fork();
    const now = new Date();
    const incident = em.create(Incident, { ...input, createdAt: now, updatedAt: now });
    await em.flush();
    return incident;
  }

  async modify(id: number, change: IncidentChange): Promise<Incident | null> {
    const em = this.em.fork();
    const incident = await em.findOne(Incident, { id });
    if (!incident) return null;
    change(incident);
    incident.updatedAt = new Date();
    await em.flush();
    return incident;
  }

  async delete(id: number): Promise<boolean> {
    return (await this.em.fork().nativeDelete(Incident, { id })) > 0;
  }
}
