import { Client } from 'pg';

/** Creates each service's own database on the server if it is missing. */
export async function ensureDatabases(adminUrl: string, names: readonly string[]): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const name of names) {
      if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`unsafe database name "${name}"`);
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) {
        try {
          await client.query(`create database "${name}"`);
        } catch (err) {
          // 42P04: another launcher created it a moment ago.
          if ((err as { code?: string }).code !== '42P04') throw err;
        }
      }
    }
  } finally {
    await client.end();
  }
}

/** The URL of one database on the server the admin URL points at. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
