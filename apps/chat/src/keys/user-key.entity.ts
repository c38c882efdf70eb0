import { Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A user's data key, wrapped (sealed) by a key derived from the master key. */
@Entity({ tableName: 'user_keys' })
export class UserKey {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  userId!: number;

  @Property({ type: 'text' })
  wrappedKey!: string;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();
}
