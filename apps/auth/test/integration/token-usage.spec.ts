import { randomInt, randomUUID } from 'node:crypto';
import {
  TOPICS,
  TokenStatus,
  type IdentityToken,
  type TokenView,
  type UsageRecorded,
} from '@tollgate/contracts';
import { aUsageRecorded, eventually, INFRASTRUCTURES, publishUsage } from '@tollgate/testing';
import { AccountsHarness, type SignedInUser } from './accounts-harness';

jest.setTimeout(120_000);

const usage = (userId: number, tokenId: number, quota: number, createdAt: number) =>
  aUsageRecorded({ user_id: userId, token_id: tokenId, quota, created_at: createdAt });

describe.each(INFRASTRUCTURES)('API key usage bookkeeping on %s infrastructure', (kind) => {
  const h = new AccountsHarness(kind, 'auth-token-usage-it', {
    record: [TOPICS.identityToken],
    authEnv: async () => ({ AUTH_TOKEN_EXPIRY_SWEEP_SECONDS: '1' }),
  });
  let user: SignedInUser;

  beforeAll(async () => {
    await h.start();
    // Key ids restart in every test database while usage.recorded on a shared broker keeps older
    // runs' events: ids from a random far range belong to this run alone.
    await h.withAuthStopped((query) =>
      query(`alter sequence tokens_id_seq restart with ${randomInt(100_000_000, 2_000_000_000)}`),
    );
    user = await h.signedInUser();
  });
  afterAll(() => h.stop());

  const createKey = async (body: Record<string, unknown>): Promise<TokenView> =>
    (await user.call('/api/token', { method: 'POST', body })).body.data as unknown as TokenView;
  const readKey = async (id: number): Promise<TokenView> =>
    (await user.call(`/api/token/${id}`)).body.data as unknown as TokenView;
  const publish = (events: UsageRecorded[]) => publishUsage(h.infra.runtime.bus, events);

  it('counts used and remaining quota and the last use once per event, exhausting the key at zero', async () => {
    const key = await createKey({ name: 'limited', remain_quota: 1000 });
    const first = usage(user.id, key.id, 300, 1_800_000_000);
    const second = usage(user.id, key.id, 200, 1_800_000_100);

    await publish([first, second, first]);
    const counted = await eventually('the usage on the key', async () => {
      const read = await readKey(key.id);
      return read.used_quota === 500 ? read : undefined;
    });
    expect(counted).toMatchObject({
      remain_quota: 500,
      status: TokenStatus.Enabled,
      accessed_time: 1_800_000_100,
    });

    await publish([second, usage(user.id, key.id, 700, 1_800_000_200)]);
    const exhausted = await eventually('the exhausted key', async () => {
      const read = await readKey(key.id);
      return read.status === TokenStatus.Exhausted ? read : undefined;
    });
    expect(exhausted).toMatchObject({ used_quota: 1200, remain_quota: 0 });
    await eventually(
      'the exhausted key on identity.token',
      async () =>
        h
          .recorder(TOPICS.identityToken)
          .values<IdentityToken>(
            (t) => t.id === key.id && t.status === TokenStatus.Exhausted && t.remain_quota === 0,
          )[0],
    );
  });

  it('sums each key’s events published together, keeps its latest use, and charges keyless events to no key', async () => {
    const one = await createKey({ name: 'one', remain_quota: 1000 });
    const two = await createKey({ name: 'two', remain_quota: 1000 });

    await publish([
      usage(user.id, one.id, 10, 1_800_000_200),
      usage(user.id, two.id, 5, 1_800_000_090),
      aUsageRecorded({ user_id: user.id, token_id: null, quota: 50, created_at: 1_800_000_300 }),
      usage(user.id, one.id, 7, 1_800_000_100),
    ]);

    const counted = await eventually('the usage on both keys', async () => {
      const [readOne, readTwo] = await Promise.all([readKey(one.id), readKey(two.id)]);
      return readOne.used_quota === 17 && readTwo.used_quota === 5 ? { readOne, readTwo } : undefined;
    });
    expect(counted.readOne).toMatchObject({ remain_quota: 983, accessed_time: 1_800_000_200 });
    expect(counted.readTwo).toMatchObject({ remain_quota: 995, accessed_time: 1_800_000_090 });
  });

  it('leaves an unlimited key enabled with its remainder untouched', async () => {
    const key = await createKey({ name: 'unlimited', unlimited_quota: true, remain_quota: 0 });

    await publish([usage(user.id, key.id, 5000, 1_800_000_000)]);

    const counted = await eventually('the usage on the unlimited key', async () => {
      const read = await readKey(key.id);
      return read.used_quota === 5000 ? read : undefined;
    });
    expect(counted).toMatchObject({ remain_quota: 0, status: TokenStatus.Enabled });
  });

  it('marks a key past its expiry time expired and publishes it', async () => {
    const key = await createKey({ name: 'short-lived', expired_time: Math.floor(Date.now() / 1000) + 1 });

    const expired = await eventually('the expired key', async () => {
      const read = await readKey(key.id);
      return read.status === TokenStatus.Expired ? read : undefined;
    });

    expect(expired.id).toBe(key.id);
    await eventually(
      'the expired key on identity.token',
      async () =>
        h
          .recorder(TOPICS.identityToken)
          .values<IdentityToken>((t) => t.id === key.id && t.status === TokenStatus.Expired)[0],
    );
  });

  it('forgets the ids of usage events applied over a month ago and keeps the recent ones', async () => {
    const [old, recent] = [randomUUID(), randomUUID()];
    await h.withAuthStopped((query) =>
      query(
        `insert into "applied_usage_events" ("event_id", "applied_at")
         values (?, now() - interval '31 days'), (?, now() - interval '29 days')`,
        [old, recent],
      ),
    );
    // Auth started again and swept once at start-up; stopping it waits for that pass to end.
    const kept = await h.withAuthStopped((query) =>
      query<{ event_id: string }>(
        'select "event_id" from "applied_usage_events" where "event_id" in (?, ?)',
        [old, recent],
      ),
    );
    expect(kept.map((row) => row.event_id)).toEqual([recent]);
  });
});
