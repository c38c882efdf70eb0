// PostgreSQL helpers of the stand-alone micro benches (bench/micro/billing-settlement.mjs,
// usage-consumers.mjs): another database on the same server, a client for one task, a backend's CPU.
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** `url` with its database replaced by `name`. */
export function databaseUrlOn(url, name) {
  const other = new URL(url);
  other.pathname = `/${name}`;
  return other.toString();
}

/** Runs `task` with a connected client, and ends the client whatever happens. */
export async function withClient(url, task) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

/** CPU ms of a process so far (utime + stime), from /proc; 0 once it has gone. */
export function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
