import { randomBytes } from 'node:crypto';
import { TOPICS, type BillingBalance } from '@tollgate/contracts';
import { DEAD_LETTER_HEADERS, deadLetterTopic, partitionForKey, type EventRecord } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import type { Env } from '@tollgate/runtime';
import {
  anIdentityUser,
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  TOPIC_PARTITIONS,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';
import { IDENTITY_USER_GROUP } from '../../src/accounts/identity-user.consumer';

jest.setTimeout(60_000);

const IDENTITY_USER = TOPICS.identityUser.name;
const IDENTITY_USER_DLQ = deadLetterTopic(IDENTITY_USER);

interface AccountRow {
  user_id: number;
  /** bigint columns come back as text. */
  quota: string;
  used_quota: string;
}

const ascending = (ids: readonly number[]): number[] => [...ids].sort((a, b) => a - b);

/**
 * The next id whose records land on the same partition as `id`'s. A partition is consumed in
 * order, so once billing has handled such a record it has handled every earlier one of `id`.
 */
function idOnSamePartition(id: number): number {
  const partition = partitionForKey(String(id), TOPIC_PARTITIONS);
  let candidate = id + 1;
  while (partitionForKey(String(candidate), TOPIC_PARTITIONS) !== partition) candidate += 1;
  return candidate;
}

describe.each(INFRASTRUCTURES)('billing on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let balances: TopicRecorder;
  let deadLetters: TopicRecorder;

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
  });

  /** Starts billing on `database`, waits until it is ready, lets `whileRunning` act, and closes it. */
  const runBilling = async (database: TestDatabase, whileRunning: () => Promise<void>): Promise<void> => {
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      await whileRunning();
    } finally {
      await billing.close();
    }
  };

  const publishUser = (key: number, value: unknown) =>
    infra.runtime.bus.publish([{ topic: IDENTITY_USER, key: String(key), value }]);

  const balancesOf = (userId: number) =>
    balances.values<BillingBalance>((balance) => balance.user_id === userId);

  const balanceArrives = (userId: number) =>
    eventually(`billing.balance of user ${userId}`, async () => balancesOf(userId)[0]);

  const readDatabase = (database: TestDatabase, userIds: readonly number[]) =>
    withDatabase(database, async (query) => ({
      accounts: await query<AccountRow>(
        'select user_id, quota, used_quota from accounts where user_id in (?) order by user_id',
        [userIds],
      ),
      balanceEvents: await query<{ key: string }>(
        'select key from outbox_messages where topic = ? and key in (?) order by id',
        [TOPICS.billingBalance.name, userIds.map(String)],
      ),
    }));

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-it');
    await infra.runtime.bus.ensureTopics([
      TOPICS.identityUser,
      TOPICS.billingBalance,
      { name: IDENTITY_USER_DLQ },
    ]);
    balances = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.billingBalance.name,
      `billing-it.balances.${infra.runId}`,
    );
    deadLetters = await TopicRecorder.start(
      infra.runtime.bus,
      IDENTITY_USER_DLQ,
      `billing-it.dlq.${infra.runId}`,
    );
  });

  afterAll(async () => {
    await balances?.stop();
    await deadLetters?.stop();
    await infra?.close();
  });

  it('opens one account with balance 0 per user however often the user is seen, and publishes one balance per account', async () => {
    const database = await infra.createDatabase();
    const seenThrice = randomUserId();
    const seenOnce = idOnSamePartition(seenThrice);

    await runBilling(database, async () => {
      await publishUser(seenThrice, anIdentityUser(seenThrice));
      await balanceArrives(seenThrice);
      // Redeliveries after the account exists, each in a publish of its own.
      await publishUser(seenThrice, anIdentityUser(seenThrice));
      await publishUser(seenThrice, anIdentityUser(seenThrice));
      await publishUser(seenOnce, anIdentityUser(seenOnce));
      await balanceArrives(seenOnce);
    });

    // Handled, not given up on: a redelivery that failed would have been dead-lettered before seenOnce was read.
    expect(deadLetters.records.filter((record) => record.key === String(seenThrice))).toEqual([]);
    for (const userId of [seenThrice, seenOnce]) {
      expect(balancesOf(userId)).toEqual([
        expect.objectContaining({ v: 1, user_id: userId, quota: 0, used_quota: 0 }),
      ]);
    }
    const { accounts, balanceEvents } = await readDatabase(database, [seenThrice, seenOnce]);
    expect(accounts).toEqual(
      ascending([seenThrice, seenOnce]).map((userId) => ({ user_id: userId, quota: '0', used_quota: '0' })),
    );
    expect(ascending(balanceEvents.map((row) => Number(row.key)))).toEqual(ascending([seenThrice, seenOnce]));
  });

  it('sends a malformed identity.user to identity.user.dlq and goes on with the records behind it', async () => {
    const database = await infra.createDatabase();
    const malformedKey = randomUserId();
    const malformed = { v: 1, id: 'not-a-number', username: 42 };
    const behind = idOnSamePartition(malformedKey);

    let deadLetter: EventRecord | undefined;
    await runBilling(database, async () => {
      await publishUser(malformedKey, malformed);
      await publishUser(behind, anIdentityUser(behind));
      // Other billing consumers of identity.user (usernames, affiliate links) dead-letter it too.
      deadLetter = await eventually('the malformed record on identity.user.dlq', async () =>
        deadLetters.records.find(
          (record) =>
            record.key === String(malformedKey) &&
            record.headers[DEAD_LETTER_HEADERS.groupId] === IDENTITY_USER_GROUP,
        ),
      );
      await balanceArrives(behind);
      // A tombstone keeps the malformed value from lingering on the shared compacted topic.
      await publishUser(malformedKey, null);
    });

    expect(deadLetter!.value).toEqual(malformed);
    expect(deadLetter!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.topic]: IDENTITY_USER,
      [DEAD_LETTER_HEADERS.groupId]: IDENTITY_USER_GROUP,
      [DEAD_LETTER_HEADERS.error]: expect.stringContaining('id'),
    });
    const { accounts } = await readDatabase(database, [malformedKey, behind]);
    expect(accounts.map((account) => account.user_id)).toEqual([behind]);
  });
});
