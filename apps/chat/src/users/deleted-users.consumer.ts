import { Controller, Logger } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { ChatsService } from '../chats/chats.service';

export const DELETED_USERS_GROUP = 'chat.identity-user';

/**
 * A deleted account (identity.user's tombstone, keyed by the user id) loses its chats, their
 * messages and its data key. Idempotent: a second tombstone finds nothing.
 */
@Controller()
export class DeletedUsersConsumer {
  private readonly logger = new Logger(DeletedUsersConsumer.name);

  constructor(private readonly chats: ChatsService) {}

  @BusEvent(TOPICS.identityUser.name, { group: DELETED_USERS_GROUP, schema: identityUserV1.nullable() })
  async deleteAccounts(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    const userIds = events.flatMap((event) => {
      const userId = Number(event.key);
      return event.value === null && Number.isSafeInteger(userId) && userId > 0 ? [userId] : [];
    });
    const chats = await this.chats.deleteAccounts(userIds);
    if (chats > 0) this.logger.log(`deleted ${chats} chat(s) of deleted accounts`);
  }
}
