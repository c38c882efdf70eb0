import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';

/** A service-owned entity, declared with `defineEntity` (no decorators, no ts-morph). */
export const CounterSchema = defineEntity({
  name: 'Counter',
  tableName: 'counters',
  properties: (p) => ({
    id: p.integer().primary().autoincrement(),
    name: p.text().unique(),
    value: p.integer(),
  }),
});
export type Counter = InferEntity<typeof CounterSchema>;

export class Migration20261122000100CreateCounters extends Migration {
  override up(): void {
    this.addSql(
      'create table "counters" ("id" serial primary key, "name" text not null unique, "value" integer not null)',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "counters"');
  }
}
