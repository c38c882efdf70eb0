import { Controller, Logger } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { AccountsService } from './accounts.service';

export const IDENTITY_USER_GROUP = 'billing.identity-user';

/** Opens an account when a user appears on identity.user. Idempotent: a user seen twice opens one account. */
@Controller()
export class IdentityUserConsumer {
  private readonly logger = new Logger(IdentityUserConsumer.name);

  constructor(private readonly accounts: AccountsService) {}

  @BusEvent(TOPICS.identityUser.name, { group: IDENTITY_USER_GROUP, schema: identityUserV1.nullable() })
  async openAccounts(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    // A deleted user (a tombstone) keeps their account and ledger.
    const users = events.flatMap(({ value: user }) => (user === null ? [] : [user]));
    const opened = await this.accounts.openAccounts(users);
    if (opened > 0) this.logger.log(`opened ${opened} account(s)`);
  }
}
