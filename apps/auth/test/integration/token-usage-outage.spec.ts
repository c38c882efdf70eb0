import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, TOPICS, TokenStatus, type TokenView, type UsageRecorded } from '@tollgate/contracts';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
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
  recordDeadLetters,
  waitUntilReady,
  type TcpProxy,
  type TopicRecorder,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAuth } from '../../src';
import { call, type Answer } from './auth-client';

jest.setTimeout(60_000);

const usage = (userId: number, tokenId: number, quota: number, createdAt: number) =>
  aUsageRecorded({ user_id: userId, token_id: tokenId, quota, created_at: createdAt });

// The fault is auth's PostgreSQL going away under a running service: on embedded infrastructure
// there is no server connection to cut (PGlite runs in the test process).
describeOnRealInfrastructure("API keys' used quota across a database outage (real infrastructure)", () => {
  const secret = randomBytes(32).toString('hex');
  let infra: TestInfrastructureWithDatabase;
  let proxy: TcpProxy;
  let auth: RunningService;
  let deadLetters: TopicRecorder;
  let outboxDir: string;
  let userId: number;

  /** Calls auth as the gateway would for the signed-in user. */
  const asUser = async (path: string, body?: unknown): Promise<Answer> =>
    call(auth.url, path, {
      ...(body === undefined ? {} : { body }),
      headers: {
        [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
          { userId, role: Role.User, via: 'session' },
          secret,
        ),
      },
    });
  const readKey = async (id: number) => (await asUser(`/api/token/${id}`)).body.data as unknown as TokenView;
  const usedQuota = (id: number, quota: number) =>
    eventually(`used_quota ${quota} on key ${id}`, async () => {
      const read = await readKey(id);
      return read.used_quota === quota ? read : undefined;
    });
  const publish = (events: UsageRecorded[]) => publishUsage(infra.runtime.bus, events);

  beforeAll(async () => {
    outboxDir = await mkdtemp(join(tmpdir(), 'tollgate-auth-outage-'));
    infra = await openInfrastructure('real', 'auth-outage-it');
    await infra.runtime.bus.ensureTopics([
      TOPICS.identityUser,
      TOPICS.identityToken,
      TOPICS.billingBalance,
      TOPICS.usageRecorded,
    ]);
    deadLetters = await recordDeadLetters(infra, TOPICS.usageRecorded.name, 'auth-outage-it');
    const database = await databaseBehindProxy(infra);
    proxy = database.proxy;
    auth = await startAuth(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'fatal',
        DATABASE_URL: database.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        TOLLGATE_ROOT_USERNAME: `root${randomBytes(3).toString('hex')}`,
        TOLLGATE_ROOT_PASSWORD: `root-pw-${randomBytes(6).toString('hex')}`,
        TOLLGATE_EMAIL_VERIFICATION: 'false',
        MAIL_OUTBOX_DIR: outboxDir,
      },
      infra.runtime,
    );
    await waitUntilReady(auth.url);
    const username = `u${randomBytes(5).toString('hex')}`;
    const registered = await call(auth.url, '/api/user/register', {
      body: {
        username,
        email: `${username}@example.com`,
        password: 'correct-horse-9',
        agree_to_terms: true,
        agree_to_data_processing: true,
      },
    });
    if (registered.status !== 200) throw new Error(`registration answered ${registered.status}`);
    userId = registered.body.data!['id'] as number;
  });

  afterAll(async () => {
    await auth?.close();
    await proxy?.close();
    await deadLetters?.stop();
    await infra?.close();
    if (outboxDir) await rm(outboxDir, { recursive: true, force: true });
  });

  it('counts every usage event published while its database was away once it is back, exactly once, dead-lettering none', async () => {
    const key = (await asUser('/api/token', { name: 'limited', remain_quota: 1000 })).body
      .data as unknown as TokenView;
    // Counted before the outage: the consumer is running and has its partitions.
    await publish([usage(userId, key.id, 1, 1_800_000_000)]);
    await usedQuota(key.id, 1);

    const outage = await databaseOutage(proxy, {
      during: () =>
        publish([
          usage(userId, key.id, 300, 1_800_000_100),
          usage(userId, key.id, 200, 1_800_000_200),
          usage(userId, key.id, 50, 1_800_000_300),
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
