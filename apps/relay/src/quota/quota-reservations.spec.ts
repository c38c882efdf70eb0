import { MemoryKvStore } from '@tollgate/kv';
import { aToken, aUser } from '../../test/support/fixtures';
import type { Caller } from '../access/caller-access';
import { PerCallClaims } from './account-claims';
import { QuotaRefusedError, QuotaReservations, tokenAccount, userAccount } from './quota-reservations';

const POLICY = { reservationTtlMs: 60_000, holdMs: 30_000 };

function setup(balance: number | undefined) {
  const kv = new MemoryKvStore();
  const reservations = new QuotaReservations(new PerCallClaims(kv, POLICY), { quotaOf: () => balance });
  return { kv, reservations };
}

const unlimited: Caller = { token: aToken({ id: 5 }), user: aUser(7), group: 'default' };
const limited: Caller = {
  token: aToken({ id: 5, unlimited_quota: false, remain_quota: 150 }),
  user: aUser(7),
  group: 'default',
};

describe('QuotaReservations', () => {
  it('reserves against the balance until the outstanding sum would exceed it', async () => {
    const { kv, reservations } = setup(250);
    await reservations.reserve(unlimited, 'a', 100);
    await reservations.reserve(unlimited, 'b', 100);
    await expect(reservations.reserve(unlimited, 'c', 100)).rejects.toMatchObject({
      status: 402,
      reason: 'user_balance',
    });
    expect(await kv.outstanding(userAccount(7))).toBe(200);
    await kv.close();
  });

  it('refuses a user with no published balance', async () => {
    const { kv, reservations } = setup(undefined);
    await expect(reservations.reserve(unlimited, 'a', 1)).rejects.toBeInstanceOf(QuotaRefusedError);
    await kv.close();
  });

  it('also reserves on a limited key, and frees the user part when the key refuses', async () => {
    const { kv, reservations } = setup(10_000);
    await reservations.reserve(limited, 'a', 100);
    expect(await kv.outstanding(tokenAccount(5))).toBe(100);
    await expect(reservations.reserve(limited, 'b', 100)).rejects.toMatchObject({ reason: 'token_quota' });
    expect(await kv.outstanding(userAccount(7))).toBe(100);
    await kv.close();
  });

  it('frees the key part when the user balance refuses', async () => {
    const { kv, reservations } = setup(50);
    await expect(reservations.reserve(limited, 'a', 100)).rejects.toMatchObject({ reason: 'user_balance' });
    expect(await kv.outstanding(tokenAccount(5))).toBe(0);
    expect(await kv.outstanding(userAccount(7))).toBe(0);
    await kv.close();
  });

  it('frees what it held when the store fails on the other account, and passes the failure on', async () => {
    const { kv } = setup(10_000);
    const failure = new Error('store unreachable');
    const failingOnToken = Object.assign(Object.create(kv) as MemoryKvStore, {
      reserve: (account: string, ...rest: [string, number, number, number]) =>
        account === tokenAccount(5) ? Promise.reject(failure) : kv.reserve(account, ...rest),
    });
    const reservations = new QuotaReservations(new PerCallClaims(failingOnToken, POLICY), {
      quotaOf: () => 10_000,
    });
    await expect(reservations.reserve(limited, 'a', 100)).rejects.toBe(failure);
    expect(await kv.outstanding(userAccount(7))).toBe(0);
    await kv.close();
  });

  it('settles to the real cost as a hold, and releases without charging', async () => {
    const { kv, reservations } = setup(1_000);
    const served = await reservations.reserve(limited, 'a', 100);
    const failed = await reservations.reserve(limited, 'b', 40);
    expect(await served.settle(30)).toBe(true);
    await failed.release();
    expect(await kv.outstanding(userAccount(7))).toBe(30);
    expect(await kv.outstanding(tokenAccount(5))).toBe(30);
    // A second settle or release of the same call changes nothing.
    await served.release();
    expect(await kv.outstanding(userAccount(7))).toBe(30);
    await kv.close();
  });
});
