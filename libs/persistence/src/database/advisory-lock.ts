import { Client } from 'pg';
import { withoutSchema } from './database-url';

/**
 * Runs `work` while holding a session-level advisory lock on its own connection, so replicas
 * (or Jest workers) doing the same one-off job take turns. Advisory locks are scoped to the
 * database the connection is on. Not for PGlite: its single connection would be taken by the lock.
 */
export async function withAdvisoryLock<T>(url: string, lockName: string, work: () => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withoutSchema(url) });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [lockName]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [lockName]);
    }
  } finally {
    await client.end();
  }
}
