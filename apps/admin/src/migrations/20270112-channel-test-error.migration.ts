import { Migration } from '@mikro-orm/migrations';

/**
 * Why a channel's last test failed (null after a passing test or before any test), and the channel's
 * own stream headers timeout in seconds (null = relay's RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS).
 */
export class ChannelTestErrorMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "channels" add column "test_error" text null, add column "stream_headers_timeout" integer null;',
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "channels" drop column if exists "test_error", drop column if exists "stream_headers_timeout";',
    );
  }
}
