import { Migration } from '@mikro-orm/migrations';

/**
 * The answer's id and why it ended, so that GET /v1/generation finds a call by the id its client saw
 * (one user's calls only: the index leads with the user).
 */
export class UsageLogAnswersMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table "usage_logs" add column "response_id" text null, add column "finish_reason" text null;',
    );
    this.addSql(
      'create index "usage_logs_user_response_index" on "usage_logs" ("user_id", "response_id") where "response_id" is not null;',
    );
    this.addSql('create index "usage_logs_user_request_index" on "usage_logs" ("user_id", "request_id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop index "usage_logs_user_request_index";');
    this.addSql('drop index "usage_logs_user_response_index";');
    this.addSql('alter table "usage_logs" drop column "response_id", drop column "finish_reason";');
  }
}
