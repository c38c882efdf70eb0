import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { identityUserV1, TOPICS } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus, type EventRecord } from '@tollgate/events';
import { BusConsumer } from '@tollgate/runtime';

export const AFFILIATE_LINKS_GROUP = 'billing.affiliate-links';

/**
 * Remembers who invited whom from identity.user. The first inviter seen stays: a later change of
 * the user record cannot move an invitee's rewards to someone else. Idempotent.
 */
@Injectable()
export class AffiliateLinksConsumer extends BusConsumer {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly em: EntityManager,
  ) {
    super(bus, { groupId: AFFILIATE_LINKS_GROUP, topics: [TOPICS.identityUser.name] });
  }

  async handle(batch: EventRecord[]): Promise<void> {
    const links = new Map<number, number>();
    for (const record of batch) {
      if (record.value === null) continue;
      const user = identityUserV1.parse(record.value);
      if (user.inviter_id !== null && user.inviter_id !== user.id && !links.has(user.id)) {
        links.set(user.id, user.inviter_id);
      }
    }
    if (links.size === 0) return;
    const rows = [...links];
    await this.em.fork().execute(
      `insert into affiliate_links (user_id, inviter_id) values ${rows.map(() => '(?, ?)').join(', ')}
       on conflict (user_id) do update
         set inviter_id = coalesce(affiliate_links.inviter_id, excluded.inviter_id), updated_at = now()`,
      rows.flat(),
    );
  }
}
