import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TokenStatus } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { identityTokenEvent } from '../tokens/token-events';
import { Token } from '../tokens/token.entity';
import { afterCharge, type UsageOfToken } from './token-usage';

/** A key locked for a batch, with what the batch's new events add to it. */
type ChargedTokenRow = Record<string, unknown> & { charged_quota: string; charged_last_used_at: string };

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
   *
   * Three statements whatever the batch's size: one records the event ids (a redelivered id is
   * skipped) and locks, in id order like every writer of keys, the keys the new events were made
   * with, returning them with what those events add up to; one writes the keys' new counters; one
   * enqueues their identity.token events.
   */
  async apply(events: readonly UsageOfToken[]): Promise<number> {
    const unique = [...new Map(events.map((event) => [event.event_id, event])).values()];
    if (unique.length === 0) return 0;
    const changed = await this.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<ChargedTokenRow[]>(
        `with "incoming" as (
           select * from jsonb_to_recordset(?::jsonb)
             as x("event_id" uuid, "token_id" integer, "quota" bigint, "created_at" bigint)
         ), "fresh" as (
           insert into "applied_usage_events" ("event_id") select "event_id" from "incoming"
           on conflict ("event_id") do nothing
           returning "event_id"
         ), "totals" as (
           select i."token_id", sum(i."quota") as "quota", max(i."created_at") as "last_used_at"
           from "incoming" i join "fresh" f on f."event_id" = i."event_id"
           where i."token_id" is not null
           group by i."token_id"
         )
         select t.*, s."quota"::text as "charged_quota", s."last_used_at"::text as "charged_last_used_at"
         from "tokens" t join "totals" s on s."token_id" = t."id"
         order by t."id"
         for update of t`,
        [JSON.stringify(unique)],
      );
      if (rows.length === 0) return 0;
      const now = new Date();
      const tokens = rows.map(({ charged_quota, charged_last_used_at, ...row }) => {
        const token = tx.map(Token, row);
        const next = afterCharge(token, Number(charged_quota));
        token.usedQuota = next.usedQuota;
        token.remainQuota = next.remainQuota;
        token.status = next.status;
        const usedAt = new Date(Number(charged_last_used_at) * 1000);
        if (!token.accessedAt || token.accessedAt < usedAt) token.accessedAt = usedAt;
        token.updatedAt = now;
        return token;
      });
      await tx.execute(
        `update "tokens" t
         set "used_quota" = v."used_quota", "remain_quota" = v."remain_quota", "status" = v."status",
             "accessed_at" = v."accessed_at", "updated_at" = v."updated_at"
         from jsonb_to_recordset(?::jsonb) as v(
           "id" integer, "used_quota" bigint, "remain_quota" bigint, "status" smallint,
           "accessed_at" timestamptz, "updated_at" timestamptz
         )
         where t."id" = v."id"`,
        [
          JSON.stringify(
            tokens.map((token) => ({
              id: token.id,
              used_quota: token.usedQuota,
              remain_quota: token.remainQuota,
              status: token.status,
              accessed_at: token.accessedAt,
              updated_at: token.updatedAt,
            })),
          ),
        ],
        'run',
      );
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
