import { setTimeout as sleep } from 'node:timers/promises';
import { deadLetterTopic, retryTimeBeforeDeadLetterMs } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import { TcpProxy } from './tcp-proxy';
import type { TestInfrastructure, TestInfrastructureWithDatabase } from './test-infrastructure';
import { TopicRecorder } from './topic-recorder';

/**
 * How long `databaseOutage` keeps the database away: as long as the bus retries a failing batch
 * before it dead-letters its records, and a margin, so that a consumer that did not wait out the
 * outage (its `isTransient`, or every consumer's rule for the infrastructure being away) would have
 * its records on the dead-letter topic before the database is back.
 */
export const OUTAGE_MS = retryTimeBeforeDeadLetterMs() + 2_000;

/**
 * A new database that the service reaches through a TCP proxy at `url`, so that a spec can take
 * it away from the running service (real infrastructure: PGlite has no connection to cut).
 */
export async function databaseBehindProxy(
  infra: TestInfrastructureWithDatabase,
): Promise<{ database: TestDatabase; proxy: TcpProxy; url: string }> {
  const database = await infra.createDatabase();
  const proxy = await TcpProxy.forUrl(database.url);
  return { database, proxy, url: proxy.via(database.url) };
}

/** Creates `topic`'s dead-letter topic and records it from now on, in a consumer group of `name`'s. */
export async function recordDeadLetters(
  infra: TestInfrastructure,
  topic: string,
  name: string,
): Promise<TopicRecorder> {
  const dlq = deadLetterTopic(topic);
  await infra.runtime.bus.ensureTopics([{ name: dlq }]);
  return TopicRecorder.start(infra.runtime.bus, dlq, `${name}.dlq.${infra.runId}`);
}

/** What a database outage saw by its end, just before the database came back. */
export interface DatabaseOutage {
  /** Connections the proxy reset meanwhile: more than none when the service did try its database. */
  refused: number;
  /** The keys on the dead-letter topic by then: what the bus gave up on during the outage. */
  deadLettered: string[];
}

/**
 * Takes the database behind `proxy` away from the service, runs `during` (the step that makes
 * the service need it, e.g. publishing what its consumers write), waits `OUTAGE_MS`, notes what
 * the outage saw, and gives the database back.
 */
export async function databaseOutage(
  proxy: TcpProxy,
  { during, deadLetters }: { during: () => Promise<unknown>; deadLetters: TopicRecorder },
): Promise<DatabaseOutage> {
  const refusedBefore = proxy.refused;
  proxy.cut();
  try {
    await during();
    await sleep(OUTAGE_MS);
    return { refused: proxy.refused - refusedBefore, deadLettered: deadLettered(deadLetters) };
  } finally {
    proxy.restore();
  }
}

/** The keys of the records a dead-letter topic's recorder has seen so far. */
export function deadLettered(deadLetters: TopicRecorder): string[] {
  return deadLetters.records.map((record) => record.key);
}
