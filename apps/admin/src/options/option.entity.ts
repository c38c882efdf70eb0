import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** One runtime setting (new-api's options table), published on catalog.option. */
@Entity({ tableName: 'options' })
export class Option {
  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'text' })
  value!: string;

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
