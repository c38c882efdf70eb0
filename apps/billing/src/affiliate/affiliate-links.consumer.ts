import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { BusConsumer, type DecodedEvent } from '@tollgate/runtime';

export const AFFILIATE_LINKS_GROUP = 'billing.affiliate-links';

/**
 * Remembers who invited whom from identity.user. The first inviter seen stays: a later change of
 * the user record cannot move an invitee's rewards to someone else. Idempotent.
 */
@Injectable()
export class AffiliateLinksConsumer extends BusConsumer<IdentityUser | null> {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    private readonly em: EntityManager,
  ) {
    super(bus, {
      groupId: AFFILIATE_LINKS_GROUP,
      topics: [TOPICS.identityUser.name],
      schema: identityUserV1.nullable(),
    });
  }

  async handle(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    const links = new Map<number, number>();
    for (const { value: user } of events) {
      if (user === null) continue;
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
