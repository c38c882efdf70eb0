// What the platform recorded, read after the load: billing's usage log, ledger and balances, every
// service's outbox, billing's consumer lag on usage.recorded, relay's reservations in Redis, and the
// ledger audit through the API.
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { KafkaEventBus, silentEventBusLogger } from '@tollgate/events';
import type { OutstandingReservation, PaymentCredit, UsageCharge } from './checks';
import type { WebSession } from './web-session';

/** Billing's consumer group of usage.recorded (apps/billing/src/usage/usage-recorded.consumer.ts). */
const USAGE_GROUP = 'billing.usage';
const USAGE_TOPIC = 'usage.recorded';

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export interface Evidence {
  usage: Map<string, UsageCharge>;
  largestCallQuota: number;
  credits: Map<number, PaymentCredit>;
  balances: { userId: number; quota: number }[];
  ledgerAudit: { user_id: number; quota: number; ledger_sum: number }[];
}

export async function readEvidence(options: {
  billingDatabaseUrl: string;
  requestIds: string[];
  root: WebSession;
}): Promise<Evidence> {
  return withClient(options.billingDatabaseUrl, async (db) => {
    const usage = new Map<string, UsageCharge>();
    const rows = await db.query<{ request_id: string; rows: number; quota: string }>(
      `select request_id, count(*)::int as rows, coalesce(sum(quota), 0)::text as quota
         from usage_logs where request_id = any($1) group by request_id`,
      [options.requestIds],
    );
    for (const row of rows.rows) usage.set(row.request_id, { rows: row.rows, quota: Number(row.quota) });
    const largest = await db.query<{ max: string | null }>('select max(quota)::text as max from usage_logs');
    const credits = new Map<number, PaymentCredit>();
    const entries = await db.query<{ idempotency_key: string; amount: string }>(
      `select idempotency_key, amount::text from ledger_entries
        where idempotency_key like 'payment:%:top_up' or idempotency_key like 'payment:%:promo_bonus'`,
    );
    for (const entry of entries.rows) {
      const id = Number(entry.idempotency_key.split(':')[1]);
      const credit = credits.get(id) ?? { entries: 0, quota: 0 };
      credits.set(id, { entries: credit.entries + 1, quota: credit.quota + Number(entry.amount) });
    }
    const balances = await db.query<{ user_id: number; quota: string }>(
      'select user_id, quota::text from accounts',
    );
    const ledgerAudit = await options.root.call<Evidence['ledgerAudit']>('GET', '/api/log/ledger-audit');
    return {
      usage,
      largestCallQuota: Number(largest.rows[0]?.max ?? 0),
      credits,
      balances: balances.rows.map((b) => ({ userId: b.user_id, quota: Number(b.quota) })),
      ledgerAudit,
    };
  });
}

/** Unpublished outbox rows per service database (a service without an outbox table counts 0). */
export async function outboxPending(databaseUrls: Record<string, string>): Promise<Record<string, number>> {
  const pending: Record<string, number> = {};
  for (const [service, url] of Object.entries(databaseUrls)) {
    pending[service] = await withClient(url, async (db) => {
      const exists = await db.query(`select to_regclass('outbox_messages') is not null as present`);
      if (!(exists.rows[0] as { present: boolean }).present) return 0;
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from outbox_messages where published_at is null',
      );
      return rows[0]!.n;
    });
  }
  return pending;
}

/** usage.recorded events billing's group has not committed, summed over partitions. */
export async function usageLag(kafkaBrokers: string, runId: string): Promise<number> {
  const bus = new KafkaEventBus({
    brokers: kafkaBrokers.split(','),
    clientId: `chaos-lag-${runId}`,
    logger: silentEventBusLogger,
  });
  try {
    const partitions = await bus.consumerLag(USAGE_GROUP, USAGE_TOPIC);
    return partitions.reduce((sum, p) => sum + p.lag, 0);
  } finally {
    await bus.close();
  }
}

/**
 * Relay's quota store: per account a sorted set `quota:{<account>}:expiry` (reservation id, expiry in
 * ms of the server's clock) beside a hash of amounts (libs/kv lua-scripts.ts). Entries past their
 * expiry are not counted: the store purges them at the account's next reservation.
 */
export async function readReservations(
  redisUrl: string,
  reservationTtlMs: number,
): Promise<OutstandingReservation[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    const [seconds, micros] = await redis.time();
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const found: OutstandingReservation[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', '*quota:{*}:expiry', 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const account = /quota:\{(.+)\}:expiry$/.exec(key)?.[1] ?? key;
        const amountKey = key.replace(/:expiry$/, ':amount');
        const entries = await redis.zrangebyscore(key, now, '+inf', 'WITHSCORES');
        for (let i = 0; i < entries.length; i += 2) {
          const id = entries[i]!;
          const amount = Number((await redis.hget(amountKey, id)) ?? 0);
          found.push({ account, id, takenAt: Number(entries[i + 1]) - reservationTtlMs, amount });
        }
      }
    } while (cursor !== '0');
    return found;
  } finally {
    redis.disconnect();
  }
}
