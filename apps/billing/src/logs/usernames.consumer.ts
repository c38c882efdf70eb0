import { Controller } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { UsernamesRepository } from './usernames.repository';

export const USERNAMES_GROUP = 'billing.usernames';

/** Keeps the names the logs show (and admins filter by) in step with identity.user. */
@Controller()
export class UsernamesConsumer {
  constructor(private readonly usernames: UsernamesRepository) {}

  @BusEvent(TOPICS.identityUser.name, { group: USERNAMES_GROUP, schema: identityUserV1.nullable() })
  async remember(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    // A deleted user's past log lines keep the name they were written under.
    await this.usernames.remember(events.flatMap(({ value: user }) => (user === null ? [] : [user])));
  }
}
