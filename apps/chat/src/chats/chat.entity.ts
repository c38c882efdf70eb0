import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** One conversation; its title and system prompt are sealed with the owner's data key. */
@Entity({ tableName: 'chats' })
export class Chat {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'integer' })
  userId!: number;

  @Property({ type: 'text' })
  titleSealed!: string;

  @Property({ type: 'text', nullable: true })
  model: string | null = null;

  @Property({ type: 'double', nullable: true })
  temperature: number | null = null;

  @Property({ type: 'text' })
  systemPromptSealed!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Opt<Date> = new Date();
}
