import { Inject, Injectable, Logger } from '@nestjs/common';
import { TOPICS } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord } from '@tollgate/events';
import { BusConsumer } from '@tollgate/runtime';
import { ChatsRepository } from '../chats/chats.repository';

export const DELETED_USERS_GROUP = 'chat.identity-user';

/**
 * A deleted account (identity.user's tombstone) loses its chats, their messages and its data key, so
 * copies of its texts left in backups cannot be read. Idempotent: a second tombstone finds nothing.
 */
@Injectable()
export class DeletedUsersConsumer extends BusConsumer {
  private readonly logger = new Logger(DeletedUsersConsumer.name);

  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly chats: ChatsRepository,
  ) {
    super(bus, { groupId: DELETED_USERS_GROUP, topics: [TOPICS.identityUser.name] });
  }

  async handle(batch: EventRecord[]): Promise<void> {
    for (const record of batch) {
      if (record.value !== null) continue;
      const userId = Number(record.key);
      if (!Number.isSafeInteger(userId) || userId <= 0) continue;
      const chats = await this.chats.deleteUser(userId);
      if (chats > 0) this.logger.log(`deleted ${chats} chat(s) of a deleted account`);
    }
  }
}
