import { randomBytes } from 'node:crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { deriveKey, InjectServiceConfig, parseMasterKey, SecretBox } from '@tollgate/platform';
import { LRUCache } from 'lru-cache';
import type { ChatConfig } from '../config';
import { UserKey } from './user-key.entity';

/** HKDF purpose of the key that wraps users' data keys (no other use of the master key shares it). */
export const CHAT_DATA_KEY_WRAP_PURPOSE = 'tollgate/chat/data-key-wrap/v1';
const DATA_KEY_BYTES = 32;

/**
 * Each user's data key: 32 random bytes, stored only sealed by the master key's wrapping key, opened
 * into a SecretBox that seals and opens that user's texts. Destroying the row makes every copy of the
 * user's texts (backups included) unreadable.
 */
@Injectable()
export class UserKeyring {
  private readonly wrapper: SecretBox;
  private readonly boxes = new LRUCache<number, SecretBox>({ max: 10_000 });

  constructor(
    @InjectServiceConfig() config: ChatConfig,
    private readonly em: EntityManager,
  ) {
    this.wrapper = new SecretBox(
      deriveKey(parseMasterKey(config.TOLLGATE_ENCRYPTION_KEY), CHAT_DATA_KEY_WRAP_PURPOSE),
    );
  }

  /** The user's box, their data key made on first use (two replicas racing keep the first one stored). */
  async boxFor(userId: number): Promise<SecretBox> {
    const cached = this.boxes.get(userId);
    if (cached) return cached;
    const em = this.em.fork();
    let row = await em.findOne(UserKey, { userId });
    if (!row) {
      const wrapped = this.wrapper.seal(randomBytes(DATA_KEY_BYTES).toString('base64'));
      await em
        .getConnection()
        .execute(
          'insert into "user_keys" ("user_id", "wrapped_key", "created_at") values (?, ?, now()) on conflict do nothing',
          [userId, wrapped],
        );
      row = await em.findOneOrFail(UserKey, { userId }, { refresh: true });
    }
    const box = new SecretBox(Buffer.from(this.wrapper.open(row.wrappedKey), 'base64'));
    this.boxes.set(userId, box);
    return box;
  }

  /** Forgets the user's data key for good (within the caller's transaction). */
  async destroy(em: EntityManager, userId: number): Promise<void> {
    await em.nativeDelete(UserKey, { userId });
    this.boxes.delete(userId);
  }
}
