import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** One release in the changelog. */
@Entity({ tableName: 'versions' })
export class Version {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'text', unique: true })
  version!: string;

  @Property({ type: 'text' })
  title!: string;

  /** Markdown. */
  @Property({ type: 'text' })
  content: Opt<string> = '';

  /** `YYYY-MM-DD`. */
  @Property({ type: 'date' })
  releaseDate!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
