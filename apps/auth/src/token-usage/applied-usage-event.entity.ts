import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A usage.recorded event already applied to its API key: a redelivery finds it here and changes nothing. */
@Entity({ tableName: 'applied_usage_events' })
export class AppliedUsageEvent {
  @PrimaryKey({ type: 'uuid' })
  eventId!: string;

  @Property({ type: 'datetime' })
  appliedAt: Opt<Date> = new Date();
}
