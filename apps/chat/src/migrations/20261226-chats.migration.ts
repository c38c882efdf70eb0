import { Migration } from '@mikro-orm/migrations';

/**
 * Chats and their messages, and each user's data key. Titles, system prompts and message contents
 * are sealed with the owner's data key (AES-256-GCM); the data key itself is stored only wrapped by
 * the master key. Deleting the key row makes every copy of the user's texts unreadable.
 */
export class ChatsMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "user_keys" (
        "user_id" int primary key,
        "wrapped_key" text not null,
        "created_at" timestamptz not null
      );`);
    this.addSql(`
      create table "chats" (
        "id" serial primary key,
        "user_id" int not null,
        "title_sealed" text not null,
        "model" text null,
        "temperature" double precision null,
        "system_prompt_sealed" text not null,
        "created_at" timestamptz not null,
        "updated_at" timestamptz not null
      );`);
    this.addSql(
      'create index "chats_user_id_updated_at_index" on "chats" ("user_id", "updated_at" desc, "id" desc);',
    );
    this.addSql(`
      create table "messages" (
        "id" serial primary key,
        "chat_id" int not null references "chats" ("id") on delete cascade,
        "role" text not null check ("role" in ('user', 'assistant')),
        "content_sealed" text not null,
        "metadata" text not null default '{}',
        "created_at" timestamptz not null
      );`);
    this.addSql('create index "messages_chat_id_id_index" on "messages" ("chat_id", "id");');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "messages";');
    this.addSql('drop table if exists "chats";');
    this.addSql('drop table if exists "user_keys";');
  }
}
