import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { LogType } from '@tollgate/contracts';
import type { Knex } from '@mikro-orm/postgresql';
import { LedgerEntryKind } from '../ledger/ledger-entry.entity';
import { LEDGER_KIND_LOG_TYPES, UNKNOWN_LEDGER_KIND_LOG_TYPE, USAGE_LOG_TYPES } from './log-type';
import type { LogRange } from './log-range';

/**
 * The ledger's part of the log: usage entries are shown from usage_logs, with their tokens and
 * model. Written as the predicate of the ledger's (created_at) and (user_id, created_at) indexes,
 * which leave usage entries out (20270102-ledger-indexes-without-usage), and as a literal, not a
 * bound parameter, so the planner can always prove the query inside them.
 */
const NOT_USAGE = `e.kind <> '${LedgerEntryKind.Usage}'`;

/** What one log query selects; a filter left undefined does not restrict. */
export interface LogQuery {
  range: LogRange;
  /** One log type, or every type when undefined. */
  type?: LogType;
  userId?: number;
  username?: string;
  modelName?: string;
  tokenName?: string;
  channel?: number;
  group?: string;
}

export type LogSource = 'usage' | 'ledger';

/** A log line as the query returns it (bigint columns come back as text). */
export interface LogRow {
  source: LogSource;
  id: string;
  created_at_text: string;
  created_epoch: string;
  type: number;
  user_id: number;
  username: string;
  token_id: number | null;
  token_name: string;
  model_name: string;
  quota: string;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_5m_tokens: number;
  cache_write_1h_tokens: number;
  latency_ms: number;
  is_stream: boolean;
  group: string;
  request_id: string;
  content: string;
  channel_id: number | null;
}

/** Where the previous batch of an export ended (its last row). */
export interface LogCursor {
  createdAt: string;
  source: LogSource;
  id: string;
}

export const cursorOf = (row: LogRow): LogCursor => ({
  createdAt: row.created_at_text,
  source: row.source,
  id: row.id,
});

/**
 * Reads the log: settled requests from usage_logs and every other balance change from the ledger,
 * merged newest first. Filters that only usage rows carry (model, token, channel, group) leave the
 * ledger out; each part is filtered on its own so its (user_id, created_at) index serves it.
 */
@Injectable()
export class LogsRepository {
  constructor(private readonly em: EntityManager) {}

  async page(query: LogQuery, page: number, pageSize: number): Promise<{ total: number; rows: LogRow[] }> {
    const em = this.em.fork();
    const knex = em.getKnex();
    const parts = this.parts(knex, query);
    if (parts.length === 0) return { total: 0, rows: [] };
    const [counted] = await em
      .getConnection()
      .execute<{ total: string }[]>(knex.select(knex.raw('count(*) as total')).from(this.union(knex, parts)));
    const rows = await em.getConnection().execute<LogRow[]>(
      this.lines(knex, parts)
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    );
    return { total: Number(counted?.total ?? 0), rows };
  }

  /** The next `limit` lines after `cursor` (from the newest without one), for exports. */
  async after(query: LogQuery, cursor: LogCursor | undefined, limit: number): Promise<LogRow[]> {
    const em = this.em.fork();
    const knex = em.getKnex();
    const parts = this.parts(knex, query, cursor);
    if (parts.length === 0) return [];
    return em.getConnection().execute<LogRow[]>(this.lines(knex, parts).limit(limit));
  }

  private lines(knex: Knex, parts: Knex.QueryBuilder[]): Knex.QueryBuilder {
    return knex
      .select(
        'l.*',
        knex.raw(`coalesce(n.username, '') as username`),
        knex.raw('l.created_at::text as created_at_text'),
        knex.raw('floor(extract(epoch from l.created_at))::bigint as created_epoch'),
      )
      .from(this.union(knex, parts))
      .leftJoin('usernames as n', 'n.user_id', 'l.user_id')
      .orderBy([
        { column: 'l.created_at', order: 'desc' },
        { column: 'l.source', order: 'desc' },
        { column: 'l.id', order: 'desc' },
      ]);
  }

  private union(knex: Knex, parts: Knex.QueryBuilder[]): Knex.Raw {
    return knex.raw(`(${parts.map(() => '(?)').join(' union all ')}) as l`, parts);
  }

  private parts(knex: Knex, query: LogQuery, cursor?: LogCursor): Knex.QueryBuilder[] {
    return [this.usagePart(knex, query, cursor), this.ledgerPart(knex, query, cursor)].filter(
      (part): part is Knex.QueryBuilder => part !== undefined,
    );
  }

  private usagePart(knex: Knex, query: LogQuery, cursor?: LogCursor): Knex.QueryBuilder | undefined {
    if (query.type !== undefined && !USAGE_LOG_TYPES.has(query.type)) return undefined;
    const part = knex('usage_logs as u').select(
      knex.raw(`'usage' as source`),
      'u.id',
      'u.created_at',
      knex.raw(`case when u.status = 'upstream_error' then ? else ? end as type`, [
        LogType.Error,
        LogType.Consume,
      ]),
      'u.user_id',
      'u.token_id',
      'u.token_name',
      knex.raw('u.model as model_name'),
      'u.quota',
      'u.prompt_tokens',
      'u.completion_tokens',
      'u.cached_tokens',
      'u.cache_write_5m_tokens',
      'u.cache_write_1h_tokens',
      'u.latency_ms',
      'u.is_stream',
      'u.group',
      'u.request_id',
      knex.raw(`'' as content`),
      'u.channel_id',
    );
    this.common(knex, part, 'u', query);
    if (query.type === LogType.Error) void part.where('u.status', 'upstream_error');
    if (query.type === LogType.Consume) void part.whereNot('u.status', 'upstream_error');
    if (query.modelName !== undefined) void part.where('u.model', query.modelName);
    if (query.tokenName !== undefined) void part.where('u.token_name', query.tokenName);
    if (query.channel !== undefined) void part.where('u.channel_id', query.channel);
    if (query.group !== undefined) void part.where('u.group', query.group);
    // Lines sort by (created_at, source, id) descending, and 'usage' > 'ledger'.
    if (cursor?.source === 'usage') {
      void part.whereRaw('(u.created_at, u.id) < (?::timestamptz, ?)', [cursor.createdAt, cursor.id]);
    } else if (cursor) {
      void part.whereRaw('u.created_at < ?::timestamptz', [cursor.createdAt]);
    }
    return part;
  }

  private ledgerPart(knex: Knex, query: LogQuery, cursor?: LogCursor): Knex.QueryBuilder | undefined {
    const usageOnlyFilter =
      query.modelName !== undefined ||
      query.tokenName !== undefined ||
      query.channel !== undefined ||
      query.group !== undefined;
    if (usageOnlyFilter || (query.type !== undefined && USAGE_LOG_TYPES.has(query.type))) return undefined;
    const kinds = Object.entries(LEDGER_KIND_LOG_TYPES);
    const typeOfKind = knex.raw(`case e.kind ${kinds.map(() => 'when ? then ?').join(' ')} else ? end`, [
      ...kinds.flat(),
      UNKNOWN_LEDGER_KIND_LOG_TYPE,
    ]);
    const part = knex('ledger_entries as e')
      .select(
        knex.raw(`'ledger' as source`),
        'e.id',
        'e.created_at',
        knex.raw('? as type', [typeOfKind]),
        'e.user_id',
        knex.raw('null::integer as token_id'),
        knex.raw(`'' as token_name`),
        knex.raw(`'' as model_name`),
        knex.raw('e.amount as quota'),
        knex.raw('0 as prompt_tokens'),
        knex.raw('0 as completion_tokens'),
        knex.raw('0 as cached_tokens'),
        knex.raw('0 as cache_write_5m_tokens'),
        knex.raw('0 as cache_write_1h_tokens'),
        knex.raw('0 as latency_ms'),
        knex.raw('false as is_stream'),
        knex.raw(`'' as "group"`),
        knex.raw(`'' as request_id`),
        knex.raw('e.note as content'),
        knex.raw('null::integer as channel_id'),
      )
      .whereRaw(NOT_USAGE);
    this.common(knex, part, 'e', query);
    if (query.type !== undefined) void part.whereRaw('? = ?', [typeOfKind, query.type]);
    if (cursor?.source === 'ledger') {
      void part.whereRaw('(e.created_at, e.id) < (?::timestamptz, ?)', [cursor.createdAt, cursor.id]);
    } else if (cursor) {
      void part.whereRaw('e.created_at <= ?::timestamptz', [cursor.createdAt]);
    }
    return part;
  }

  /** The range (inclusive, whole seconds) and who. */
  private common(knex: Knex, part: Knex.QueryBuilder, alias: string, query: LogQuery): void {
    void part
      .where(`${alias}.created_at`, '>=', new Date(query.range.start * 1000))
      .where(`${alias}.created_at`, '<', new Date((query.range.end + 1) * 1000));
    if (query.userId !== undefined) void part.where(`${alias}.user_id`, query.userId);
    if (query.username !== undefined) {
      void part.whereIn(
        `${alias}.user_id`,
        knex('usernames').select('user_id').where('username', query.username),
      );
    }
  }
}
