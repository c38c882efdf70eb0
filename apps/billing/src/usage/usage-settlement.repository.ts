import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { MOSCOW_UTC_OFFSET_SECONDS, TOPICS } from '@tollgate/contracts';
import { outboxInsertSql, queryRows } from '@tollgate/persistence';
import { currentCorrelationHeaders } from '@tollgate/platform';
import { billingBalanceValueSql } from '../accounts/balance-events';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import type { SettledUsage } from './settled-usage';

/** What one batch changed, as committed. */
export interface SettledBatch {
  /** Events charged now; the others had been settled before. */
  settled: number;
  /** Quota charged now per model (models charged nothing are left out). */
  chargedByModel: Map<string, number>;
  /** Accounts the batch changed, one balance publication each. */
  accounts: number;
}

interface SettlementRow {
  settled: number;
  charged: Record<string, string>;
  accounts: number;
}

/**
 * One statement settles a batch, whatever its size and however many users it holds:
 * - "logged" writes the usage-log rows; the unique event id skips every event settled before, so
 *   only what it returns is charged (a redelivered batch changes nothing);
 * - "charges" sums the fresh events per user, and "entries" writes one ledger entry per user of them,
 *   keyed by the lowest of their event ids (each event is fresh once, so no later batch takes the key
 *   again): one entry a user a batch, not one an event, cut a heap row and two index entries from
 *   nearly every event (PostgreSQL's buffer hits per event −16 % at 700 events of 333 users a batch,
 *   −36 % at 5,000: bench/micro/billing-settlement.mjs, bench/ANALYSIS.md H58). Nothing reads
 *   usage entries one by one: the log shows usage from usage_logs, the audit sums the ledger;
 * - "stats" adds the fresh events to the daily rollup, rows in key order, the cache writes apart as the
 *   log keeps them;
 * - "balances" opens the account of a user billing has not seen and moves each balance by its new
 *   entry, once per user, accounts in user id order (every writer of accounts locks
 *   in that order, so concurrent batches cannot deadlock);
 * - "published" puts one billing.balance per changed account into the outbox (billingBalanceEvent's
 *   value, written in SQL), in user id order; the caller nudges the outbox relay.
 * One statement is one transaction: no BEGIN and COMMIT round trips, no transaction object in this
 * process, and the changed accounts never travel to this process and back as JSON (billing's CPU per
 * call -25 % at 300 calls/s, bench/ANALYSIS.md H46).
 * All sub-statements see the same snapshot, which is why the account is opened and charged by one
 * upsert. Neither log rows nor entries have a foreign key on accounts (20270101-settlement-writes,
 * 20270103-ledger-without-account-check): "balances" opens the account of every entry's user, each
 * log row's user has the batch's entry, and accounts are never deleted.
 * The batch is json, not jsonb: json_to_recordset reads the text as it comes, where jsonb would first
 * build its binary tree (PostgreSQL's CPU per event -14 %, bench/micro/billing-settlement.mjs). It is
 * the events as decoded, keys the statement does not name ignored, and each event's Moscow day
 * (moscow-day.ts) is worked out here, so that no row object is built per event to send it.
 * The event tells all of a call's cache writes and the hour's part of them (absent: none); the log
 * keeps the 5-minute and the hour's writes apart, as they are priced.
 * Exported for bench/micro/billing-settlement.mjs, which runs it alone.
 */
export const SETTLE_SQL = `
with "incoming" as (
  select x.*, date '1970-01-01' + ((x."created_at" + ${MOSCOW_UTC_OFFSET_SECONDS}) / 86400)::integer as "day"
  from json_to_recordset(?::json) as x(
    "event_id" uuid, "created_at" bigint, "user_id" integer, "token_id" integer,
    "token_name" text, "channel_id" integer, "model" text, "upstream_model" text,
    "prompt_tokens" integer, "completion_tokens" integer, "cached_tokens" integer,
    "cache_write_tokens" integer, "cache_write_1h_tokens" integer, "quota" bigint,
    "latency_ms" integer, "ttft_ms" integer, "is_stream" boolean, "status" text, "group" text,
    "request_id" text, "response_id" text, "finish_reason" text
  )
), "logged" as (
  insert into "usage_logs" (
    "event_id", "created_at", "user_id", "token_id", "token_name", "channel_id", "model",
    "upstream_model", "prompt_tokens", "completion_tokens", "cached_tokens", "cache_write_5m_tokens",
    "cache_write_1h_tokens", "quota", "latency_ms", "ttft_ms", "is_stream", "status", "group",
    "request_id", "response_id", "finish_reason"
  )
  select "event_id", to_timestamp("created_at"), "user_id", "token_id", "token_name", "channel_id",
    "model", "upstream_model", "prompt_tokens", "completion_tokens", "cached_tokens",
    greatest(coalesce("cache_write_tokens", 0) - coalesce("cache_write_1h_tokens", 0), 0),
    coalesce("cache_write_1h_tokens", 0), "quota", "latency_ms", "ttft_ms", "is_stream", "status",
    "group", "request_id", "response_id", "finish_reason"
  from "incoming"
  on conflict ("event_id") do nothing
  returning "event_id"
), "fresh" as (
  select i.* from "incoming" i join "logged" l on l."event_id" = i."event_id"
), "charges" as (
  select "user_id", -sum("quota") as "amount", count(*) as "requests",
    'usage:' || min("event_id"::text) as "idempotency_key"
  from "fresh"
  group by "user_id"
), "entries" as (
  insert into "ledger_entries" ("user_id", "kind", "amount", "idempotency_key", "note")
  select "user_id", '${LedgerEntryKind.Usage}', "amount", "idempotency_key", 'requests: ' || "requests"
  from "charges"
  order by "user_id"
  on conflict ("idempotency_key") do nothing
  returning "user_id"
), "stats" as (
  insert into "usage_daily_stats"
    ("user_id", "day", "model", "token_id", "requests", "prompt_tokens", "completion_tokens",
     "cached_tokens", "cache_write_5m_tokens", "cache_write_1h_tokens", "quota")
  select "user_id", "day", "model", coalesce("token_id", 0), count(*), sum("prompt_tokens"),
    sum("completion_tokens"), sum("cached_tokens"),
    sum(greatest(coalesce("cache_write_tokens", 0) - coalesce("cache_write_1h_tokens", 0), 0)),
    sum(coalesce("cache_write_1h_tokens", 0)), sum("quota")
  from "fresh"
  group by "user_id", "day", "model", coalesce("token_id", 0)
  order by "user_id", "day", "model", coalesce("token_id", 0)
  on conflict ("user_id", "day", "model", "token_id") do update set
    "requests" = "usage_daily_stats"."requests" + excluded."requests",
    "prompt_tokens" = "usage_daily_stats"."prompt_tokens" + excluded."prompt_tokens",
    "completion_tokens" = "usage_daily_stats"."completion_tokens" + excluded."completion_tokens",
    "cached_tokens" = "usage_daily_stats"."cached_tokens" + excluded."cached_tokens",
    "cache_write_5m_tokens" = "usage_daily_stats"."cache_write_5m_tokens" + excluded."cache_write_5m_tokens",
    "cache_write_1h_tokens" = "usage_daily_stats"."cache_write_1h_tokens" + excluded."cache_write_1h_tokens",
    "quota" = "usage_daily_stats"."quota" + excluded."quota"
), "balances" as (
  insert into "accounts" ("user_id", "quota", "used_quota", "request_count", "version")
  select c."user_id", c."amount", -c."amount", c."requests", 1
  from "entries" e join "charges" c on c."user_id" = e."user_id"
  order by c."user_id"
  on conflict ("user_id") do update set
    "quota" = "accounts"."quota" + excluded."quota",
    "used_quota" = "accounts"."used_quota" + excluded."used_quota",
    "request_count" = "accounts"."request_count" + excluded."request_count",
    "version" = "accounts"."version" + 1,
    "updated_at" = now()
  returning *
), "published" as (
  ${outboxInsertSql({ from: 'balances', alias: 'b', keyColumn: 'user_id', valueSql: billingBalanceValueSql('b') })}
)
select
  -- A user's entry whose key existed before is corruption (the key is one of this batch's fresh event
  -- ids, each fresh once): the text cast to integer then fails the statement, which undoes all of it.
  case when (select count(*) from "charges") = (select count(*) from "entries")
    then (select count(*) from "logged")::integer
    else ('usage log and ledger disagree about which usage events were settled before: '
      || (select count(*) from "charges") || ' users charged, '
      || (select count(*) from "entries") || ' ledger entries written')::integer
  end as "settled",
  (select coalesce(jsonb_object_agg("model", "quota"), '{}')
     from (select "model", sum("quota")::text as "quota" from "fresh" where "quota" > 0 group by "model") m
  ) as "charged",
  (select count(*) from "published")::integer as "accounts"`;

/** The only writer of usage settlement: usage-log rows, their ledger entries, rollups and balances. */
@Injectable()
export class UsageSettlementRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Settles events with distinct ids in one statement (its own transaction), the changed accounts'
   * billing.balance events included. The caller nudges the outbox.
   */
  async settle(events: readonly SettledUsage[]): Promise<SettledBatch> {
    // (Typed arrays and unnest cost PostgreSQL as much as json and this process more to build.)
    const [row] = await queryRows<SettlementRow>(this.em, SETTLE_SQL, [
      JSON.stringify(events),
      TOPICS.billingBalance.name,
      JSON.stringify(currentCorrelationHeaders()),
    ]);
    if (!row) throw new Error('the settlement statement returned no row');
    return {
      settled: row.settled,
      chargedByModel: new Map(Object.entries(row.charged).map(([model, quota]) => [model, Number(quota)])),
      accounts: row.accounts,
    };
  }
}
