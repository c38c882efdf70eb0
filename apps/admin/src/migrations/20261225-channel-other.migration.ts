import { Migration } from '@mikro-orm/migrations';

/** new-api's `other` per channel: an Azure channel's API version ('' = relay's default). */
export class ChannelOtherMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "channels" add column "other" text not null default '';`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "channels" drop column if exists "other";');
  }
}
