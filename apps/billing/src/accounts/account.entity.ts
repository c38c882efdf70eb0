import { BigIntType, Entity, PrimaryKey, Property, type Opt } from '@mikro-orm/core';

/** A user's money in quota units (500 000 = $1). Integers only; changed only together with a ledger entry. */
@Entity({ tableName: 'accounts' })
export class Account {
  @PrimaryKey({ type: 'integer', autoincrement: false })
  userId!: number;

  @Property({ type: new BigIntType('number') })
  quota: Opt<number> = 0;

  @Property({ type: new BigIntType('number') })
  usedQuota: Opt<number> = 0;

  @Property({ type: new BigIntType('number') })
  requestCount: Opt<number> = 0;

  @Property({ type: new BigIntType('number') })
  affQuota: Opt<number> = 0;

  @Property({ type: new BigIntType('number') })
  affHistoryQuota: Opt<number> = 0;

  /** Bumped on every change; read models keep the highest version they have seen. */
  @Property({ type: new BigIntType('number') })
  version: Opt<number> = 0;

  @Property({ type: 'datetime' })
  createdAt: Opt<Date> = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Opt<Date> = new Date();
}
