import { Inject, Injectable } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord } from '@tollgate/events';
import { BusConsumer } from '@tollgate/runtime';
import { UsernamesRepository } from './usernames.repository';

export const USERNAMES_GROUP = 'billing.usernames';

/** Keeps the names the logs show (and admins filter by) in step with identity.user. */
@Injectable()
export class UsernamesConsumer extends BusConsumer {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly usernames: UsernamesRepository,
  ) {
    super(bus, { groupId: USERNAMES_GROUP, topics: [TOPICS.identityUser.name] });
  }

  async handle(batch: EventRecord[]): Promise<void> {
    const users: IdentityUser[] = [];
    for (const record of batch) {
      // A deleted user's past log lines keep the name they were written under.
      if (record.value !== null) users.push(identityUserV1.parse(record.value));
    }
    await this.usernames.remember(users);
  }
}
