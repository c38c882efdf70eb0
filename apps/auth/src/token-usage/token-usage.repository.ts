import { LockMode } from '@mikro-orm/core';
import { EntityManager, type Knex } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { TokenStatus } from '@tollgate/contracts';
import { enqueueOutbox, OutboxRelay } from '@tollgate/persistence';
import { identityTokenEvent } from '../tokens/token-events';
import { Token } from '../tokens/token.entity';
import { afterCharge, type UsageOfToken } from './token-usage';

/** A key locked for a batch, with what the batch's new events add to it. */
type ChargedTokenRow = Record<string, unknown> & { charged_quota: string; charged_last_used_at: string };

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
select t.*, s."quota"::text as "charged_quota", s."last_used_at"::text as "charged_last_used_at"
from "tokens" t join "totals" s on s."token_id" = t."id"
order by t."id"
for update of t`;

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
   * Three statements whatever the batch's size: one records the event ids (a redelivered id is
   * skipped) and locks, in id order like every writer of keys, the keys the new events were made
   * with, returning them with what those events add up to; the transaction's flush writes the keys'
   * new counters (one update for all of them); one enqueues their identity.token events.
   */
  async apply(events: readonly UsageOfToken[]): Promise<number> {
    const incoming = incomingJson(events);
    if (incoming === undefined) return 0;
    const changed = await this.em.fork().transactional(async (tx) => {
      // Through the transaction's knex, so the batch travels as a bound parameter: execute() would
      // copy it into the SQL text, escaping every character of it.
      const trx = tx.getTransactionContext<Knex.Transaction>()!;
      const { rows } = await trx.raw<{ rows: ChargedTokenRow[] }>(CHARGE_SQL, [incoming]);
      if (rows.length === 0) return 0;
      const now = new Date();
      const tokens = rows.map(({ charged_quota, charged_last_used_at, ...row }) => {
        // Managed: the flush at commit writes what changed.
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
