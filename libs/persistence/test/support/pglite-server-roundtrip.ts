/**
 * Run by pglite-server.spec.ts in a child process (see ts-register.js): starts the embedded
 * server twice on one data directory and prints what it saw as JSON.
 */
import { Client } from 'pg';
import { startPgliteServer } from '../../src/pglite/pglite-server';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url, ssl: false });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function main(dataDir: string): Promise<void> {
  const first = await startPgliteServer({ dataDir });
  await query(first.url, "create table notes (body text not null); insert into notes values ('kept')");
  await first.close();

  const second = await startPgliteServer({ dataDir });
  const notes = await query<{ body: string }>(second.url, 'select body from notes');
  const [{ version }] = await query<{ version: string }>(second.url, 'select version() as version');
  await second.close();

  process.stdout.write(JSON.stringify({ firstUrl: first.url, secondUrl: second.url, notes, version }));
}

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: pglite-server-roundtrip <data dir>');
main(dataDir).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
