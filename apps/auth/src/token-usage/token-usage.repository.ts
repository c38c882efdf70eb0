import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TOPICS, TokenStatus } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay, outboxInsertSql, queryRows } from '@tollgate/persistence';
import { currentCorrelationHeaders } from '@tollgate/platform';
import { identityTokenEvent, identityTokenValueSql } from '../tokens/token-events';
import { Token } from '../tokens/token.entity';
import type { UsageOfToken } from './token-usage';

/**
 * Applies a batch in one statement (its own transaction):
 * - "fresh" records the batch's event ids; a redelivered id is skipped, so only what it returns counts;
 * - "locked" locks, in id order like every writer of keys, the keys the new events were made with,
 *   with what those events add up to: one primary-key probe per key (a lateral subquery, run in turn
 *   for each key of the sorted totals), whatever the planner guesses of the batch's size;
 * - "written" charges each key once (found by the locked ids as an array, which the planner probes
 *   the primary key with rather than scanning the table): used grows; a limited key's remainder shrinks, never below zero,
 *   and an enabled key whose remainder is gone becomes exhausted (an unlimited key keeps both); its
 *   last use is the latest of the one it had and the batch's;
 * - "published" puts each changed key's identity.token event into the outbox, in id order.
 * One round trip where it was five (BEGIN, lock, write, outbox insert, COMMIT), and the keys never
 * travel to this process (bench/ANALYSIS.md, H46). The batch is `json` (read once as text), not
 * `jsonb` (which would build a tree first). json_to_recordset is always estimated at 100 rows, so joined
 * plainly, a `tokens` of one to a few thousand keys was read whole twice for a batch of one event
 * (bench/ANALYSIS.md, H70).
 */
const APPLY_SQL = `with "incoming" as (
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
), "locked" as (
  select t."id", t."status", t."remain_quota", t."used_quota", t."unlimited_quota", t."accessed_at",
    s."quota" as "charged", s."last_used_at"
  from (select * from "totals" order by "token_id") s
  cross join lateral (
    select k."id", k."status", k."remain_quota", k."used_quota", k."unlimited_quota", k."accessed_at"
    from "tokens" k where k."id" = s."token_id"
    for update
  ) t
), "written" as (
  update "tokens" t set
    "used_quota" = l."used_quota" + l."charged",
    "remain_quota" = case when l."unlimited_quota" then l."remain_quota"
      else greatest(0, l."remain_quota" - l."charged") end,
    "status" = case when not l."unlimited_quota" and l."status" = ${TokenStatus.Enabled}
        and greatest(0, l."remain_quota" - l."charged") = 0
      then ${TokenStatus.Exhausted} else l."status" end,
    "accessed_at" = greatest(l."accessed_at", to_timestamp(l."last_used_at")),
    "updated_at" = now()
  from "locked" l
  where t."id" = l."id" and t."id" = any(array(select "id" from "locked"))
  returning t.*
), "published" as (
  ${outboxInsertSql({ from: 'written', alias: 'w', keyColumn: 'id', valueSql: identityTokenValueSql('w') })}
)
select (select count(*) from "published")::integer as "changed"`;

/** The batch as APPLY_SQL's parameter: the four fields it reads, once per event id; undefined if empty. */
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
   * Applies a batch: events seen before are skipped, each key is changed (and published) once however
   * many of its events the batch holds. Returns the keys changed.
   */
  async apply(events: readonly UsageOfToken[]): Promise<number> {
    const incoming = incomingJson(events);
    if (incoming === undefined) return 0;
    const [row] = await queryRows<{ changed: number }>(this.em, APPLY_SQL, [
      incoming,
      TOPICS.identityToken.name,
      JSON.stringify(currentCorrelationHeaders()),
    ]);
    const changed = row?.changed ?? 0;
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
