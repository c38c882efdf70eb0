import { TOPICS } from '@tollgate/contracts';
import { DEAD_LETTER_HEADERS, deadLetterTopic, type EventRecord } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import { anIdentityUser, eventually, INFRASTRUCTURES, randomUserId, withDatabase } from '@tollgate/testing';
import { IDENTITY_USER_GROUP } from '../../src/accounts/identity-user.consumer';
import { BillingHarness } from './billing-harness';
import { userOnSamePartition } from './builders';

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

describe.each(INFRASTRUCTURES)('billing on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-it', {
    topics: [TOPICS.identityUser],
    record: [TOPICS.billingBalance, { name: IDENTITY_USER_DLQ }],
  });
  const deadLetters = () => harness.recorder(IDENTITY_USER_DLQ);

  const publishUser = (key: number, value: unknown) =>
    harness.bus.publish([{ topic: IDENTITY_USER, key: String(key), value }]);

  const balanceArrives = (userId: number) =>
    eventually(`billing.balance of user ${userId}`, async () => harness.balancesOf(userId)[0]);

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

  beforeAll(() => harness.open());
  afterAll(() => harness.close());

  it('opens one account with balance 0 per user however often the user is seen, and publishes one balance per account', async () => {
    const database = await harness.createDatabase();
    const seenThrice = randomUserId();
    const seenOnce = userOnSamePartition(seenThrice);

    await harness.run(database, async () => {
      await publishUser(seenThrice, anIdentityUser(seenThrice));
      await balanceArrives(seenThrice);
      // Redeliveries after the account exists, each in a publish of its own.
      await publishUser(seenThrice, anIdentityUser(seenThrice));
      await publishUser(seenThrice, anIdentityUser(seenThrice));
      await publishUser(seenOnce, anIdentityUser(seenOnce));
      await balanceArrives(seenOnce);
    });

    // Handled, not given up on: a redelivery that failed would have been dead-lettered before seenOnce was read.
    expect(deadLetters().records.filter((record) => record.key === String(seenThrice))).toEqual([]);
    for (const userId of [seenThrice, seenOnce]) {
      expect(harness.balancesOf(userId)).toEqual([
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
    const database = await harness.createDatabase();
    const malformedKey = randomUserId();
    const malformed = { v: 1, id: 'not-a-number', username: 42 };
    const behind = userOnSamePartition(malformedKey);

    let deadLetter: EventRecord | undefined;
    await harness.run(database, async () => {
      await publishUser(malformedKey, malformed);
      await publishUser(behind, anIdentityUser(behind));
      // Other billing consumers of identity.user (usernames, affiliate links) dead-letter it too.
      deadLetter = await eventually('the malformed record on identity.user.dlq', async () =>
        deadLetters().records.find(
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
