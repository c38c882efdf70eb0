import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TokenStatus } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay, queryRows } from '@tollgate/persistence';
import { identityTokenEvent } from '../tokens/token-events';
import { Token } from '../tokens/token.entity';
import { afterCharge, type UsageOfToken } from './token-usage';

/** A key locked for a batch: what a charge changes, and what the batch's new events add to it. */
interface LockedTokenRow {
  id: number;
  status: TokenStatus;
  remain_quota: string;
  used_quota: string;
  unlimited_quota: boolean;
  accessed_at: Date | null;
  charged_quota: string;
  charged_last_used_at: string;
}

/**
 * Records the batch's event ids (a redelivered id is skipped) and locks, in id order like every
 * writer of keys, the keys the new events were made with, returning each with what they add up to.
 * The batch is `json` (read once as text), not `jsonb` (which would build a tree first).
 */
const CHARGE_SQL = `with "incoming" as (
  select * from json_to_recordset(?::json)
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
select t."id", t."status", t."remain_quota", t."used_quota", t."unlimited_quota", t."accessed_at",
  s."quota"::text as "charged_quota", s."last_used_at"::text as "charged_last_used_at"
from "tokens" t join "totals" s on s."token_id" = t."id"
order by t."id"
for update of t`;

/** Writes the locked keys' new counters (a json parameter, one row per key) and returns the keys. */
const WRITE_SQL = `update "tokens" t
set "used_quota" = v."used_quota", "remain_quota" = v."remain_quota", "status" = v."status",
  "accessed_at" = v."accessed_at", "updated_at" = v."updated_at"
from json_to_recordset(?::json) as v(
  "id" integer, "used_quota" bigint, "remain_quota" bigint, "status" smallint,
  "accessed_at" timestamptz, "updated_at" timestamptz
)
where t."id" = v."id"
returning t.*`;

/** The batch as CHARGE_SQL's parameter: the four fields it reads, once per event id; undefined if empty. */
function incomingJson(events: readonly UsageOfToken[]): string | undefined {
  const unique = new Map<string, UsageOfToken>();
  for (const { event_id, token_id, quota, created_at } of events) {
    if (!unique.has(event_id)) unique.set(event_id, { event_id, token_id, quota, created_at });
  }
  return unique.size === 0 ? undefined : JSON.stringify([...unique.values()]);
}

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
   * Three statements whatever the batch's size: CHARGE_SQL, WRITE_SQL (one row per key: MikroORM's
   * flush would write them as one `case` per column with a branch per key, quadratic in PostgreSQL),
   * and one insert of their identity.token events.
   */
  async apply(events: readonly UsageOfToken[]): Promise<number> {
    const incoming = incomingJson(events);
    if (incoming === undefined) return 0;
    const changed = await this.em.fork().transactional(async (tx) => {
      const locked = await queryRows<LockedTokenRow>(tx, CHARGE_SQL, [incoming]);
      if (locked.length === 0) return 0;
      const now = new Date();
      const counters = locked.map((row) => {
        const next = afterCharge(
          {
            status: row.status,
            remainQuota: Number(row.remain_quota),
            usedQuota: Number(row.used_quota),
            unlimitedQuota: row.unlimited_quota,
          },
          Number(row.charged_quota),
        );
        const usedAt = new Date(Number(row.charged_last_used_at) * 1000);
        return {
          id: row.id,
          used_quota: next.usedQuota,
          remain_quota: next.remainQuota,
          status: next.status,
          accessed_at: row.accessed_at && row.accessed_at >= usedAt ? row.accessed_at : usedAt,
          updated_at: now,
        };
      });
      const written = await queryRows<Record<string, unknown>>(tx, WRITE_SQL, [JSON.stringify(counters)]);
      // Mapped as written, so the flush at commit finds nothing left to write.
      const tokens = written.map((row) => tx.map(Token, row));
      await enqueueOutbox(tx, tokens.map(identityTokenEvent));
      return tokens.length;
    });
    if (changed > 0) this.outbox.nudge();
    return changed;
  }

  /**
   * Forgets applied event ids older than `before` (a redelivery comes within minutes, not weeks), in
   * statements of at most `perStatement` rows so that no one of them holds the table for long.
   * Returns how many.
   */
  async forgetAppliedBefore(before: Date, perStatement = 10_000): Promise<number> {
    const connection = this.em.getConnection();
    let forgotten = 0;
    for (;;) {
      const rows = await connection.execute<{ n: number }[]>(
        `with "gone" as (
           delete from "applied_usage_events" where "event_id" in (
             select "event_id" from "applied_usage_events" where "applied_at" < ? limit ?
           ) returning 1
         ) select count(*)::int as "n" from "gone"`,
        [before, perStatement],
      );
      const n = rows[0]?.n ?? 0;
      forgotten += n;
      if (n < perStatement) return forgotten;
    }
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
