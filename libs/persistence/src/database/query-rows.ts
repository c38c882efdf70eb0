import { createHash } from 'node:crypto';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { KEEPS_NAMED_STATEMENTS } from './orm-options';

/** The name of each statement text queryRows prepares, at most MAX_NAMED of them (texts are constants). */
const names = new Map<string, string>();
const MAX_NAMED = 64;

function statementName(sql: string): string | undefined {
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `tollgate_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/** knex configs (one per database opened; a client's transactions share it) that refused a named statement. */
const refusedNaming = new WeakSet<object>();

function namesStatements(knex: Knex): boolean {
  const config = knex.client.config as Record<string, unknown>;
  return config[KEEPS_NAMED_STATEMENTS] === true && !refusedNaming.has(config);
}

/**
 * What the server answers when a named statement is not what pg believes it prepared on the
 * connection: gone (26000: a pooler in transaction mode handed over another server connection, or
 * someone ran DISCARD ALL), already there (42P05: another client's, on a shared session), or cached
 * for another result type (0A000: a migration changed what a `*` of the statement's result reads).
 * In each the statement was not run.
 */
function refusesNamedStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '26000' ||
    code === '42P05' ||
    (code === '0A000' && typeof message === 'string' && message.includes('cached plan'))
  );
}

/**
 * Runs `sql` with `?` placeholders and returns its rows, inside `em`'s transaction when it has one.
 * Through knex, so the parameters travel bound: `EntityManager.execute` copies them into the SQL
 * text, escaping every character, which for a batch sent as one json parameter costs more than the
 * statement (measured for billing's settlement and auth's and admin's usage consumers).
 *
 * `sql` is a constant (a consumer's batch statement) and names its result columns. On PostgreSQL and
 * on a PGlite on this thread (embedded mode's bookkeeping worker) it is a named prepared statement,
 * parsed once per connection, and after five runs PostgreSQL keeps its generic plan: parsing and
 * planning these CTE statements was most of a small batch's CPU (bench/ANALYSIS.md, H62, H66).
 * Behind pglite-socket, whose connections share one session, it stays unnamed; and so it does, from
 * the first refusal on, for a database whose connections do not keep what they prepared (a pooler
 * in transaction mode that does not track prepared statements): outside a transaction the refused
 * statement is sent again unnamed, inside one the error goes to the caller, whose retry is unnamed.
 */
export async function queryRows<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const transaction = em.getTransactionContext<Knex.Transaction>();
  const knex = transaction ?? em.getKnex();
  const raw = () => knex.raw<{ rows: T[] }>(sql, params as Knex.RawBinding[]);
  const name = namesStatements(knex) ? statementName(sql) : undefined;
  if (name === undefined) return (await raw()).rows;
  try {
    return (await raw().options({ name })).rows;
  } catch (error) {
    if (!refusesNamedStatement(error)) throw error;
    refusedNaming.add(knex.client.config as object);
    if (transaction !== undefined) throw error;
    return (await raw()).rows;
  }
}
