import { createHash } from 'node:crypto';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';

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

/** Whether `knex` reaches a PGlite on this thread, whose connections keep their named statements. */
function reachesInThreadPglite(knex: Knex): boolean {
  const { connection } = knex.client.config as { connection?: { stream?: unknown } };
  return typeof connection?.stream === 'function';
}

/**
 * Runs `sql` with `?` placeholders and returns its rows, inside `em`'s transaction when it has one.
 * Through knex, so the parameters travel bound: `EntityManager.execute` copies them into the SQL
 * text, escaping every character, which for a batch sent as one json parameter costs more than the
 * statement (measured for billing's settlement and auth's and admin's usage consumers).
 *
 * `sql` is a constant (a consumer's batch statement). On a PGlite on this thread (embedded mode's
 * bookkeeping worker) it is a named prepared statement, parsed once per connection, and after five
 * runs PostgreSQL keeps its generic plan: parsing and planning these CTE statements was most of a
 * small batch's CPU, and every batch's (bench/ANALYSIS.md, H62).
 */
export async function queryRows<T>(em: EntityManager, sql: string, params: readonly unknown[]): Promise<T[]> {
  const knex = em.getTransactionContext<Knex.Transaction>() ?? em.getKnex();
  const raw = knex.raw<{ rows: T[] }>(sql, params as Knex.RawBinding[]);
  const name = reachesInThreadPglite(knex) ? statementName(sql) : undefined;
  const { rows } = await (name === undefined ? raw : raw.options({ name }));
  return rows;
}
