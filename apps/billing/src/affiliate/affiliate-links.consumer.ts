import { Controller } from '@nestjs/common';
import { identityUserV1, TOPICS, type IdentityUser } from '@tollgate/contracts';
import { BusEvent, type DecodedEvent } from '@tollgate/runtime';
import { AffiliateService } from './affiliate.service';

export const AFFILIATE_LINKS_GROUP = 'billing.affiliate-links';

/** Remembers who invited whom from identity.user (AffiliateService.rememberInviters). */
@Controller()
export class AffiliateLinksConsumer {
  constructor(private readonly affiliate: AffiliateService) {}

  @BusEvent(TOPICS.identityUser.name, { group: AFFILIATE_LINKS_GROUP, schema: identityUserV1.nullable() })
  async rememberInviters(events: DecodedEvent<IdentityUser | null>[]): Promise<void> {
    await this.affiliate.rememberInviters(events.flatMap(({ value: user }) => (user === null ? [] : [user])));
  }
}
