import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord, type Subscription } from '@tollgate/events';
import { AccountsService } from './accounts.service';

export const IDENTITY_USER_GROUP = 'billing.identity-user';

/** Opens an account when a user appears on identity.user. Idempotent: a user seen twice opens one account. */
@Injectable()
export class IdentityUserConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(IdentityUserConsumer.name);
  private subscription?: Subscription;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly accounts: AccountsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe({
      groupId: IDENTITY_USER_GROUP,
      topics: [TOPICS.identityUser.name],
      handler: (batch) => this.handle(batch),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }

  async handle(batch: EventRecord[]): Promise<void> {
    const users: IdentityUser[] = [];
    for (const record of batch) {
      if (record.value === null) continue; // a deleted user keeps their account and ledger
      users.push(identityUserV1.parse(record.value));
    }
    const opened = await this.accounts.openAccounts(users);
    if (opened > 0) this.logger.log(`opened ${opened} account(s)`);
  }
}
