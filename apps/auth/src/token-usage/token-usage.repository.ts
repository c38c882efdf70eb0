import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TokenStatus } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { identityTokenEvent } from '../tokens/token-events';
import { Token } from '../tokens/token.entity';
import { AppliedUsageEvent } from './applied-usage-event.entity';
import { afterCharge, totalsByToken, type UsageOfToken } from './token-usage';

/** API keys' use as relay reports it, and their expiry: each change is published on identity.token. */
@Injectable()
export class TokenUsageRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: OutboxRelay,
  ) {}

  /**
   * Applies a batch in one transaction: events seen before are skipped, each key is changed (and
   * published) once however many of its events the batch holds. Returns the keys changed.
   */
  async apply(events: readonly UsageOfToken[]): Promise<number> {
    if (events.length === 0) return 0;
    const changed = await this.em.fork().transactional(async (tx) => {
      const ids = [...new Set(events.map((event) => event.event_id))];
      const seen = new Set(
        (await tx.find(AppliedUsageEvent, { eventId: { $in: ids } }, { fields: ['eventId'] })).map(
          (e) => e.eventId,
        ),
      );
      const fresh = events.filter((event) => !seen.has(event.event_id));
      const unique = [...new Map(fresh.map((event) => [event.event_id, event])).values()];
      if (unique.length === 0) return 0;
      await tx.insertMany(
        AppliedUsageEvent,
        unique.map((event) => ({ eventId: event.event_id, appliedAt: new Date() })),
      );

      const totals = totalsByToken(unique);
      const tokens = await tx.find(
        Token,
        { id: { $in: totals.map((total) => total.tokenId) } },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' } },
      );
      const byId = new Map(tokens.map((token) => [token.id, token]));
      for (const total of totals) {
        // A key deleted since the call was made has nothing left to count against.
        const token = byId.get(total.tokenId);
        if (!token) continue;
        const next = afterCharge(token, total.quota);
        token.usedQuota = next.usedQuota;
        token.remainQuota = next.remainQuota;
        token.status = next.status;
        const usedAt = new Date(total.lastUsedAt * 1000);
        if (!token.accessedAt || token.accessedAt < usedAt) token.accessedAt = usedAt;
        token.updatedAt = new Date();
      }
      await tx.flush();
      await enqueueOutbox(tx, tokens.map(identityTokenEvent));
      return tokens.length;
    });
    if (changed > 0) this.outbox.nudge();
    return changed;
  }

  /** Marks enabled keys whose `expired_time` has passed as expired. Returns how many. */
  async expire(nowSeconds: number): Promise<number> {
    const expired = await this.em.fork().transactional(async (tx) => {
      const due = await tx.find(
        Token,
        { status: TokenStatus.Enabled, expiredTime: { $ne: -1, $lte: nowSeconds } },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { id: 'asc' }, limit: 1000 },
      );
      for (const token of due) {
        token.status = TokenStatus.Expired;
        token.updatedAt = new Date();
      }
      await tx.flush();
      await enqueueOutbox(tx, due.map(identityTokenEvent));
      return due.length;
    });
    if (expired > 0) this.outbox.nudge();
    return expired;
  }
}
