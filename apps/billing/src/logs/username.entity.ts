import { BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A user's name as identity.user last carried it: billing owns no users, its logs show their names. */
@Entity({ tableName: 'usernames' })
export class Username {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  userId!: number;

  @Property({ type: 'text' })
  username!: string;

  /** identity.user's updated_at (epoch seconds): an older event never overwrites a newer name. */
  @Property({ type: new BigIntType('number') })
  updatedAt!: number;
}
