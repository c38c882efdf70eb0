import { Inject, Injectable } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';
import { UsernamesRepository } from './usernames.repository';

export const USERNAMES_GROUP = 'billing.usernames';

/** Keeps the names the logs show (and admins filter by) in step with identity.user. */
@Injectable()
export class UsernamesConsumer extends BusConsumer<IdentityUser | null> {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly usernames: UsernamesRepository,
  ) {
    super(bus, {
      groupId: USERNAMES_GROUP,
      topics: [TOPICS.identityUser.name],
      schema: identityUserV1.nullable(),
    });
  }

  async handle(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    const users: IdentityUser[] = [];
    for (const { value: user } of events) {
      // A deleted user's past log lines keep the name they were written under.
      if (user !== null) users.push(user);
    }
    await this.usernames.remember(users);
  }
}
