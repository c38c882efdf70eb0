import { TOPICS } from '@tollgate/contracts';
import { deadLetterTopic } from '@tollgate/events';
import type { TestDatabase } from '@tollgate/persistence';
import {
  anIdentityUser,
  databaseOutage,
  deadLettered,
  describeOnRealInfrastructure,
  randomUserId,
  withDatabase,
  type TcpProxy,
} from '@tollgate/testing';
import { BillingHarness } from './billing-harness';
import { userOnOtherPartition } from './builders';

jest.setTimeout(60_000);

const IDENTITY_USER = TOPICS.identityUser.name;

// The fault is billing's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
describeOnRealInfrastructure('billing accounts across a database outage (real infrastructure)', () => {
  const harness = new BillingHarness('real', 'billing-accounts-outage-it', {
    topics: [TOPICS.identityUser],
    record: [TOPICS.billingBalance, { name: deadLetterTopic(IDENTITY_USER) }],
  });
  const deadLetters = () => harness.recorder(deadLetterTopic(IDENTITY_USER));
  /** The user's first billing.balance: billing has opened their account. */
  const balanceOf = (userId: number) => harness.balanceAfter(userId, 0);
  let database: TestDatabase;
  let proxy: TcpProxy;

  beforeAll(async () => {
    await harness.open();
    ({ database, proxy } = await harness.startBehindProxy({ LOG_LEVEL: 'fatal' }));
  });
  afterAll(() => harness.close());

  it("opens the account of every user who appeared while billing's database was away once it is back, dead-lettering none", async () => {
    // Opened before the outage: the consumers are running and have their partitions.
    const before = randomUserId();
    await harness.publishUsers([anIdentityUser(before)]);
    await balanceOf(before);

    const first = randomUserId();
    const second = userOnOtherPartition(first);
    const outage = await databaseOutage(proxy, {
      during: () =>
        harness.publishUsers([anIdentityUser(first), { ...anIdentityUser(second), inviter_id: first }]),
      deadLetters: deadLetters(),
    });
    // Billing did try its database while it was away.
    expect(outage.refused).toBeGreaterThan(0);
    // Anything the bus gave up on went to the dead-letter topic during the outage.
    expect(outage.deadLettered).toEqual([]);

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
    expect(deadLettered(deadLetters())).toEqual([]);
  });
});
