import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TOPICS, type BillingBalance, type IdentityUser } from '@tollgate/contracts';
import { deadLetterTopic, partitionForKey, retryTimeBeforeDeadLetterMs } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import type { RunningService } from '@tollgate/runtime';
import {
  anIdentityUser,
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TcpProxy,
  TOPIC_PARTITIONS,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(60_000);

const IDENTITY_USER = TOPICS.identityUser.name;
/**
 * The outage lasts longer than the bus retries a failing batch before it dead-letters its records,
 * so that without the consumers waiting out a database that is away the users would be on the
 * dead-letter topic before the database is back.
 */
const OUTAGE_MS = retryTimeBeforeDeadLetterMs() + 2_000;

/** A user whose records land on another partition than `userId`'s, so two partitions wait out the outage. */
function userOnOtherPartition(userId: number): number {
  const partition = partitionForKey(String(userId), TOPIC_PARTITIONS);
  let candidate = userId + 1;
  while (partitionForKey(String(candidate), TOPIC_PARTITIONS) === partition) candidate += 1;
  return candidate;
}

// The fault is billing's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
const onRealInfrastructure = INFRASTRUCTURES.includes('real') ? describe : describe.skip;

onRealInfrastructure('billing accounts across a database outage (real infrastructure)', () => {
  let infra: TestInfrastructureWithDatabase;
  let database: TestDatabase;
  let proxy: TcpProxy;
  let billing: RunningService;
  let balances: TopicRecorder;
  let deadLetters: TopicRecorder;

  const publish = (users: readonly IdentityUser[]) =>
    infra.runtime.bus.publish(users.map((value) => ({ topic: IDENTITY_USER, key: String(value.id), value })));
  const balanceOf = (userId: number) =>
    eventually(`billing.balance of user ${userId}`, async () =>
      balances.values<BillingBalance>((b) => b.user_id === userId).at(0),
    );

  beforeAll(async () => {
    infra = await openInfrastructure('real', 'billing-accounts-outage-it');
    await infra.runtime.bus.ensureTopics([
      TOPICS.identityUser,
      TOPICS.billingBalance,
      { name: deadLetterTopic(IDENTITY_USER) },
    ]);
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `billing-accounts-outage-it.balances.${infra.runId}`,
    );
    deadLetters = await TopicRecorder.start(
      infra.runtime.bus,
      deadLetterTopic(IDENTITY_USER),
      `billing-accounts-outage-it.dlq.${infra.runId}`,
    );
    database = await infra.createDatabase();
    proxy = await TcpProxy.forUrl(database.url);
    billing = await startBilling(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'fatal',
        DATABASE_URL: proxy.via(database.url),
        TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
      },
      infra.runtime,
    );
    await waitUntilReady(billing.url);
  });

  afterAll(async () => {
    await billing?.close();
    await proxy?.close();
    await balances?.stop();
    await deadLetters?.stop();
    await infra?.close();
  });

  it("opens the account of every user who appeared while billing's database was away once it is back, dead-lettering none", async () => {
    // Opened before the outage: the consumers are running and have their partitions.
    const before = randomUserId();
    await publish([anIdentityUser(before)]);
    await balanceOf(before);

    proxy.cut();
    const first = randomUserId();
    const second = userOnOtherPartition(first);
    await publish([anIdentityUser(first), { ...anIdentityUser(second), inviter_id: first }]);
    await sleep(OUTAGE_MS);
    // Billing did try its database while it was away.
    expect(proxy.refused).toBeGreaterThan(0);
    // Anything the bus gave up on went to the dead-letter topic during the outage.
    expect(deadLetters.records.map((record) => record.key)).toEqual([]);
    proxy.restore();

    await balanceOf(first);
    await balanceOf(second);
    const stored = await withDatabase(database, async (query) => ({
      accounts: await query<{ user_id: number }>(
        'select user_id from accounts where user_id in (?, ?) order by user_id',
        [first, second],
      ),
      usernames: await query<{ user_id: number; username: string }>(
        'select user_id, username from usernames where user_id in (?, ?) order by user_id',
        [first, second],
      ),
      affiliateLinks: await query<{ user_id: number; inviter_id: number }>(
        'select user_id, inviter_id from affiliate_links where user_id in (?, ?)',
        [first, second],
      ),
    }));
    const ids = [first, second].sort((a, b) => a - b);
    expect(stored).toEqual({
      accounts: ids.map((userId) => ({ user_id: userId })),
      usernames: ids.map((userId) => ({ user_id: userId, username: `user_${userId}` })),
      affiliateLinks: [{ user_id: second, inviter_id: first }],
    });
    // Billing's three consumers of identity.user (accounts, usernames, affiliate links) waited it out.
    expect(deadLetters.records.map((record) => record.key)).toEqual([]);
  });
});
