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
 * How "locked" (below) finds and locks, in id order like every writer of keys, the keys of a batch's
 * new events, with what those events add up to, and how "written" finds them again. json_to_recordset
 * is estimated at 100 rows whatever the batch, so a plain join scanned a `tokens` of one to a few
 * thousand keys whole, twice, even for one event (bench/ANALYSIS.md, H70).
 * - `probe`, for a batch of a few keys: a lateral subquery probes the primary key for each key of the
 *   sorted totals in turn and locks it; the update finds them by their ids as an array.
 * - `join`, for more keys: a join the planner may hash (a scan of the table is then cheaper than the
 *   probes), sorted by id before the lock.
 */
const FIND_KEYS = {
  probe: {
    locked: `from (select * from "totals" order by "token_id") s
  cross join lateral (
    select k."id", k."status", k."remain_quota", k."used_quota", k."unlimited_quota", k."accessed_at"
    from "tokens" k where k."id" = s."token_id"
    for update
  ) t`,
    written: `t."id" = l."id" and t."id" = any(array(select "id" from "locked"))`,
  },
  join: {
    locked: `from "tokens" t join "totals" s on s."token_id" = t."id"
  order by t."id"
  for update of t`,
    written: `t."id" = l."id"`,
  },
} as const;

/** Up to this many distinct keys a batch, `probe`: below it, at 300 to 10,000 keys, never slower (H70). */
const PROBE_KEYS_AT_MOST = 32;

/**
 * Applies a batch in one statement (its own transaction):
 * - "fresh" records the batch's event ids; a redelivered id is skipped, so only what it returns counts;
 * - "locked" locks the keys the new events were made with, with what those events add up to
 *   (FIND_KEYS);
 * - "written" charges each key once: used grows; a limited key's remainder shrinks, never below zero,
 *   and an enabled key whose remainder is gone becomes exhausted (an unlimited key keeps both); its
 *   last use is the latest of the one it had and the batch's;
 * - "published" puts each changed key's identity.token event into the outbox, in id order.
 * One round trip where it was five (BEGIN, lock, write, outbox insert, COMMIT), and the keys never
 * travel to this process (bench/ANALYSIS.md, H46). The batch is `json` (read once as text), not
 * `jsonb` (which would build a tree first).
 */
const applySql = (find: (typeof FIND_KEYS)[keyof typeof FIND_KEYS]) => `with "incoming" as (
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
  ${find.locked}
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
  where ${find.written}
  returning t.*
), "published" as (
  ${outboxInsertSql({ from: 'written', alias: 'w', keyColumn: 'id', valueSql: identityTokenValueSql('w') })}
)
select (select count(*) from "published")::integer as "changed"`;

const APPLY_SQL = { probe: applySql(FIND_KEYS.probe), join: applySql(FIND_KEYS.join) };

/**
 * The batch as the statement's parameter (the four fields it reads, once per event id) and the
 * statement for its count of keys; undefined if empty.
 */
function applyStatement(events: readonly UsageOfToken[]): { sql: string; incoming: string } | undefined {
  const unique = new Map<string, UsageOfToken>();
  const keys = new Set<number>();
  for (const { event_id, token_id, quota, created_at } of events) {
    if (unique.has(event_id)) continue;
    unique.set(event_id, { event_id, token_id, quota, created_at });
    if (token_id !== null) keys.add(token_id);
  }
  if (unique.size === 0) return undefined;
  return {
    sql: keys.size <= PROBE_KEYS_AT_MOST ? APPLY_SQL.probe : APPLY_SQL.join,
    incoming: JSON.stringify([...unique.values()]),
  };
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
    const statement = applyStatement(events);
    if (statement === undefined) return 0;
    const [row] = await queryRows<{ changed: number }>(this.em, statement.sql, [
      statement.incoming,
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
