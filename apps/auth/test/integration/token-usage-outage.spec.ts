import { TOPICS, TokenStatus, type TokenView, type UsageRecorded } from '@tollgate/contracts';
import {
  aUsageRecorded,
  databaseOutage,
  deadLettered,
  eventually,
  describeOnRealInfrastructure,
  publishUsage,
  recordDeadLetters,
  TcpProxy,
  type TopicRecorder,
} from '@tollgate/testing';
import { AccountsHarness, type SignedInUser } from './accounts-harness';

jest.setTimeout(60_000);

const usage = (userId: number, tokenId: number, quota: number, createdAt: number) =>
  aUsageRecorded({ user_id: userId, token_id: tokenId, quota, created_at: createdAt });

// The fault is auth's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
describeOnRealInfrastructure("API keys' used quota across a database outage (real infrastructure)", () => {
  let proxy: TcpProxy;
  const harness = new AccountsHarness('real', 'auth-outage-it', {
    // Auth reaches its database through a proxy the spec can cut.
    databaseUrl: async (database) => {
      proxy = await TcpProxy.forUrl(database.url);
      return proxy.via(database.url);
    },
    // The outage's refused connections are expected: no error logs for them.
    authEnv: async () => ({ LOG_LEVEL: 'fatal' }),
  });
  let deadLetters: TopicRecorder;
  let user: SignedInUser;

  const readKey = async (id: number) =>
    (await user.call(`/api/token/${id}`)).body.data as unknown as TokenView;
  const usedQuota = (id: number, quota: number) =>
    eventually(`used_quota ${quota} on key ${id}`, async () => {
      const read = await readKey(id);
      return read.used_quota === quota ? read : undefined;
    });
  const publish = (events: UsageRecorded[]) => publishUsage(harness.infra.runtime.bus, events);

  beforeAll(async () => {
    await harness.start();
    deadLetters = await recordDeadLetters(harness.infra, TOPICS.usageRecorded.name, 'auth-outage-it');
    user = await harness.signedInUser();
  });

  afterAll(async () => {
    await deadLetters?.stop();
    await harness.stop();
    await proxy?.close();
  });

  it('counts every usage event published while its database was away once it is back, exactly once, dead-lettering none', async () => {
    const key = (await user.call('/api/token', { body: { name: 'limited', remain_quota: 1000 } })).body
      .data as unknown as TokenView;
    // Counted before the outage: the consumer is running and has its partitions.
    await publish([usage(user.id, key.id, 1, 1_800_000_000)]);
    await usedQuota(key.id, 1);

    const outage = await databaseOutage(proxy, {
      during: () =>
        publish([
          usage(user.id, key.id, 300, 1_800_000_100),
          usage(user.id, key.id, 200, 1_800_000_200),
          usage(user.id, key.id, 50, 1_800_000_300),
        ]),
      deadLetters,
    });
    // Auth did try its database while it was away.
    expect(outage.refused).toBeGreaterThan(0);
    // Anything the bus gave up on went to the dead-letter topic during the outage.
    expect(outage.deadLettered).toEqual([]);

    const counted = await usedQuota(key.id, 551);
    expect(counted).toMatchObject({
      remain_quota: 449,
      status: TokenStatus.Enabled,
      accessed_time: 1_800_000_300,
    });
    expect(deadLettered(deadLetters)).toEqual([]);
  });
});
