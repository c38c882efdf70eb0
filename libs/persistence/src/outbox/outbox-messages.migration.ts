import { Migration } from '@mikro-orm/migrations';

/** Creates `outbox_messages`. Services add it to their own migration list. */
export class Migration20261122000000CreateOutboxMessages extends Migration {
  override up(): void {
    this.addSql(`
      create table "outbox_messages" (
        "id" bigserial primary key,
        "topic" text not null,
        "key" text not null,
        "value" jsonb null,
        "headers" jsonb not null default '{}'::jsonb,
        "created_at" timestamptz not null default now(),
        "published_at" timestamptz null
      )`);
    // The relay's scan: unpublished rows in id order.
    this.addSql(
      `create index "outbox_messages_unpublished_idx" on "outbox_messages" ("id") where "published_at" is null`,
    );
    // The retention purge.
    this.addSql(
      `create index "outbox_messages_published_at_idx" on "outbox_messages" ("published_at") where "published_at" is not null`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "outbox_messages"');
  }
}
