import { Inject, Injectable, Logger } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';
import { AccountsService } from './accounts.service';

export const IDENTITY_USER_GROUP = 'billing.identity-user';

/** Opens an account when a user appears on identity.user. Idempotent: a user seen twice opens one account. */
@Injectable()
export class IdentityUserConsumer extends BusConsumer<IdentityUser | null> {
  private readonly logger = new Logger(IdentityUserConsumer.name);

  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly accounts: AccountsService,
  ) {
    super(bus, {
      groupId: IDENTITY_USER_GROUP,
      topics: [TOPICS.identityUser.name],
      schema: identityUserV1.nullable(),
    });
  }

  async handle(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    const users: IdentityUser[] = [];
    for (const { value: user } of events) {
      if (user !== null) users.push(user); // a deleted user keeps their account and ledger
    }
    const opened = await this.accounts.openAccounts(users);
    if (opened > 0) this.logger.log(`opened ${opened} account(s)`);
  }
}
