import { Migration } from '@mikro-orm/migrations';

/** A key's own rate limits: requests and tokens per minute, requests in flight (0 = its group's). */
export class TokenRateLimitsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "tokens" add column "rpm_limit" integer not null default 0, ' +
        'add column "tpm_limit" integer not null default 0, ' +
        'add column "concurrency_limit" integer not null default 0;',
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      'alter table "tokens" drop column "rpm_limit", drop column "tpm_limit", drop column "concurrency_limit";',
    );
  }
}
