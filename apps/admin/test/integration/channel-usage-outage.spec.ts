import { randomBytes } from 'node:crypto';
import { TOPICS, type ChannelView, type UsageRecorded } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  aUsageRecorded,
  databaseBehindProxy,
  databaseOutage,
  deadLettered,
  eventually,
  describeOnRealInfrastructure,
  openInfrastructure,
  publishUsage,
  randomUserId,
  recordDeadLetters,
  waitUntilReady,
  type TcpProxy,
  type TopicRecorder,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(60_000);

/** A charge of `quota` on `channelId` by `userId`. */
const aCharge = (userId: number, channelId: number, quota: number) =>
  aUsageRecorded({ user_id: userId, channel_id: channelId, quota });

// The fault is admin's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
describeOnRealInfrastructure("channels' used quota across a database outage (real infrastructure)", () => {
  const secret = randomBytes(32).toString('hex');
  let infra: TestInfrastructureWithDatabase;
  let proxy: TcpProxy;
  let admin: RunningService;
  let client: AdminClient;
  let deadLetters: TopicRecorder;

  const usedQuota = (id: number, quota: number) =>
    eventually(`used_quota ${quota} on channel ${id}`, async () => {
      const read = (await client.call<ChannelView>(`/api/channel/${id}`)).body.data;
      return read?.used_quota === quota ? read : undefined;
    });
  const publish = (events: UsageRecorded[]) => publishUsage(infra.runtime.bus, events);

  beforeAll(async () => {
    infra = await openInfrastructure('real', 'admin-outage-it');
    await infra.runtime.bus.ensureTopics([TOPICS.catalogChannel, TOPICS.catalogOption, TOPICS.usageRecorded]);
    deadLetters = await recordDeadLetters(infra, TOPICS.usageRecorded.name, 'admin-outage-it');
    const database = await databaseBehindProxy(infra);
    proxy = database.proxy;
    admin = await startAdmin(
      adminEnv(database.url, secret, randomBytes(32), { LOG_LEVEL: 'fatal' }),
      infra.runtime,
    );
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await proxy?.close();
    await deadLetters?.stop();
    await infra?.close();
  });

  it("adds every charge published while its database was away to the channel's used_quota once it is back, exactly once, dead-lettering none", async () => {
    const created = await client.call<ChannelView>('/api/channel/', {
      method: 'POST',
      body: {
        type: 1,
        name: `openai ${randomBytes(4).toString('hex')}`,
        key: `sk-outage-${randomBytes(16).toString('hex')}`,
        base_url: 'https://upstream.example.test/',
        models: 'gpt-4o-mini',
        group: 'default',
      },
    });
    expect(created.status).toBe(200);
    const channel = created.body.data!;
    const userId = randomUserId();
    // Counted before the outage: the consumer is running and has its partitions.
    await publish([aCharge(userId, channel.id, 1)]);
    await usedQuota(channel.id, 1);

    const outage = await databaseOutage(proxy, {
      during: () =>
        publish([
          aCharge(userId, channel.id, 1200),
          aCharge(randomUserId(), channel.id, 800),
          aCharge(randomUserId(), channel.id, 7),
        ]),
      deadLetters,
    });
    // Admin did try its database while it was away.
    expect(outage.refused).toBeGreaterThan(0);
    // Anything the bus gave up on went to the dead-letter topic during the outage.
    expect(outage.deadLettered).toEqual([]);

    expect((await usedQuota(channel.id, 2008)).used_quota).toBe(2008);
    expect(deadLettered(deadLetters)).toEqual([]);
  });
});
