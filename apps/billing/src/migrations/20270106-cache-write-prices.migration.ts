import { Migration } from '@mikro-orm/migrations';

/** The Claude models the prices migration seeded: Anthropic prices their cache writes apart from input. */
const SEEDED_CLAUDE_MODELS = [
  'claude-opus-4-5',
  'claude-opus-4-1',
  'claude-sonnet-4-5',
  'claude-sonnet-4',
  'claude-haiku-4-5',
  'claude-3-7-sonnet',
];

/**
 * Prompt-cache write prices, USD per 1M tokens: writes kept 5 minutes and writes kept an hour. Null
 * where a model has none, and then a write costs the input price (and an hour's write the 5-minute
 * price), as every write did before. The seeded Claude models get Anthropic's ratios on their input
 * price as it stands (1.25× and 2×), and go to billing.price again (`published_at` null).
 */
export class CacheWritePricesMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table "model_prices"
        add column "cache_write_price" numeric(18,6) null check ("cache_write_price" >= 0),
        add column "cache_write_1h_price" numeric(18,6) null check ("cache_write_1h_price" >= 0);`);
    const knex = this.getKnex();
    this.addSql(
      knex('model_prices')
        .update({
          cache_write_price: knex.raw('round("input_price" * 1.25, 6)'),
          cache_write_1h_price: knex.raw('"input_price" * 2'),
          published_at: null,
          updated_at: knex.fn.now(),
        })
        .whereIn('model', SEEDED_CLAUDE_MODELS),
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "model_prices" drop column "cache_write_1h_price", drop column "cache_write_price";',
    );
    this.addSql('update "model_prices" set "published_at" = null;');
  }
}
