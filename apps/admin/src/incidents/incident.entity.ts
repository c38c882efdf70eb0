import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { IncidentSeverity, IncidentStatus, IncidentUpdate, StatusComponent } from '@tollgate/contracts';

/** One service incident, as the status page tells it. */
@Entity({ tableName: 'incidents' })
export class Incident {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'text' })
  title!: string;

  /** Markdown. */
  @Property({ type: 'text' })
  description: Opt<string> = '';

  /** The English title; empty when the operators wrote none (readers get `title`). */
  @Property({ type: 'text' })
  titleEn: Opt<string> = '';

  /** The English description (Markdown); empty when none. */
  @Property({ type: 'text' })
  descriptionEn: Opt<string> = '';

  @Property({ type: 'text' })
  status!: IncidentStatus;

  @Property({ type: 'text' })
  severity!: IncidentSeverity;

  /** The affected components, in the contracts' fixed order. */
  @Property({ type: 'json' })
  components: Opt<StatusComponent[]> = [];

  /** The timeline, oldest first; `text` (and `text_en`, when written) is Markdown. */
  @Property({ type: 'json' })
  updates: Opt<IncidentUpdate[]> = [];

  @Property({ type: 'datetime' })
  startedAt!: Date;

  /** Set when the incident is resolved; cleared when it is reopened. */
  @Property({ type: 'datetime', nullable: true })
  resolvedAt: (Date & Opt) | null = null;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
