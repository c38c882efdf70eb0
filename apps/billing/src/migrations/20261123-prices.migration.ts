import { Migration } from '@mikro-orm/migrations';
import { SEED_GROUP_RATIOS, SEED_MODEL_PRICES } from './20261123-prices.seed';

/**
 * The model catalogue and group ratios, seeded here rather than upserted at start-up: a migration
 * runs once per database, so an admin's later edit or deletion is never overwritten or resurrected.
 * `published_at` stays null so billing publishes every seeded entry on billing.price at start-up.
 */
export class PricesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "model_prices" (
        "model" text primary key,
        "provider" text not null,
        "input_price" numeric(18,6) not null check ("input_price" >= 0),
        "output_price" numeric(18,6) not null check ("output_price" >= 0),
        "cached_input_price" numeric(18,6) not null check ("cached_input_price" >= 0),
        "context_window" integer not null check ("context_window" >= 0),
        "intelligence" smallint not null check ("intelligence" between 1 and 5),
        "speed" smallint not null check ("speed" between 1 and 5),
        "sota" boolean not null default false,
        "deprecated" boolean not null default false,
        "published_at" timestamptz null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      );`);
    this.addSql(`
      create table "group_ratios" (
        "group" text primary key,
        "ratio" numeric(10,6) not null check ("ratio" >= 0),
        "published_at" timestamptz null,
        "created_at" timestamptz not null default now(),
        "updated_at" timestamptz not null default now()
      );`);
    const knex = this.getKnex();
    this.addSql(
      knex
        .insert(
          SEED_MODEL_PRICES.map((price) => ({
            model: price.model,
            provider: price.provider,
            input_price: price.input,
            output_price: price.output,
            cached_input_price: price.cachedInput,
            context_window: price.contextWindow,
            intelligence: price.intelligence,
            speed: price.speed,
            sota: price.sota ?? false,
            deprecated: price.deprecated ?? false,
          })),
        )
        .into('model_prices')
        .onConflict('model')
        .ignore(),
    );
    this.addSql(
      knex
        .insert(Object.entries(SEED_GROUP_RATIOS).map(([group, ratio]) => ({ group, ratio })))
        .into('group_ratios')
        .onConflict('group')
        .ignore(),
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "group_ratios";');
    this.addSql('drop table if exists "model_prices";');
  }
}
