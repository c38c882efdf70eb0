import { Inject, Injectable, Logger } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';
import { ChatsRepository } from '../chats/chats.repository';

export const DELETED_USERS_GROUP = 'chat.identity-user';

/**
 * A deleted account (identity.user's tombstone) loses its chats, their messages and its data key, so
 * copies of its texts left in backups cannot be read. Idempotent: a second tombstone finds nothing.
 */
@Injectable()
export class DeletedUsersConsumer extends BusConsumer<IdentityUser | null> {
  private readonly logger = new Logger(DeletedUsersConsumer.name);

  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly chats: ChatsRepository,
  ) {
    super(bus, {
      groupId: DELETED_USERS_GROUP,
      topics: [TOPICS.identityUser.name],
      schema: identityUserV1.nullable(),
    });
  }

  async handle(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    for (const event of events) {
      if (event.value !== null) continue;
      const userId = Number(event.key);
      if (!Number.isSafeInteger(userId) || userId <= 0) continue;
      const chats = await this.chats.deleteUser(userId);
      if (chats > 0) this.logger.log(`deleted ${chats} chat(s) of a deleted account`);
    }
  }
}
