import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { identityUserV1, Role, TOPICS, type IdentityUser } from '@tollgate/contracts';
import type { Subscription } from '@tollgate/events';
import { startDistributed, type DistributedPlatform } from '@tollgate/launcher';
import { signInternalToken } from '@tollgate/platform';
import { eventually, newRunId } from '@tollgate/testing';
import { infrastructureEnv, relaySpoolDir, REPO_ROOT, runEventBus, runTopicPrefix } from './support/e2e-env';

jest.setTimeout(180_000);

/**
 * The platform as separate processes on real PostgreSQL, Redis and Kafka: an outbox event survives a
 * crash between the database commit and the publish, and entities published on compacted topics by
 * one service are seen by the others. The broker is shared with other tests, so every assertion is
 * about this run's own root user (a unique username) and its own databases.
 */
describe('distributed platform: outbox and compacted topics', () => {
  const infra = infrastructureEnv();
  const id = newRunId();
  const secret = randomBytes(32).toString('hex');
  const rootUsername = `root_${id}`;
  let platform: DistributedPlatform;
  const clients: Client[] = [];
  const observer = runEventBus(id, `e2e-${id}`);
  let subscription: Subscription;
  const rootEvents: IdentityUser[] = [];

  const db = async (service: 'auth' | 'billing'): Promise<Client> => {
    const client = new Client({ connectionString: platform.databaseUrls[service] });
    await client.connect();
    clients.push(client);
    return client;
  };

  const spool = relaySpoolDir();

  beforeAll(async () => {
    platform = await startDistributed({
      repoRoot: REPO_ROOT,
      env: {
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        TOLLGATE_ROOT_USERNAME: rootUsername,
        TOLLGATE_ROOT_PASSWORD: 'e2e-root-password',
        LOG_LEVEL: 'info',
        RELAY_USAGE_SPOOL_DIR: spool.dir,
        KAFKA_TOPIC_PREFIX: runTopicPrefix(id),
        // The killed auth's consumers leave their groups after this instead of kafkajs's 30 s, so the
        // restarted auth joins sooner.
        KAFKA_SESSION_TIMEOUT_MS: '10000',
      },
      ...infra,
      databasePrefix: `e2e_${id}`,
      logDir: join(REPO_ROOT, 'reports', 'e2e-logs', id),
      // auth is started by the test itself.
      skip: ['auth'],
    });
    // Everything published on identity.user from now on, as another service would see it.
    subscription = await observer.subscribe({
      groupId: `e2e-observer-${id}`,
      topics: [TOPICS.identityUser.name],
      fromBeginning: false,
      handler: async (batch) => {
        for (const record of batch) {
          const user = record.value === null ? undefined : identityUserV1.safeParse(record.value).data;
          if (user?.username === rootUsername) rootEvents.push(user);
        }
      },
    });
  });

  afterAll(async () => {
    await subscription?.stop();
    await observer.close();
    await Promise.all(clients.map((c) => c.end()));
    await platform?.stop();
    spool.remove();
  });

  let rootId: number;

  it('keeps a committed outbox event across a SIGKILL before it was published, and publishes it after restart', async () => {
    // auth commits the root user and its identity.user event, but does not publish (relay off)…
    await platform.services.auth.start({ OUTBOX_RELAY_ENABLED: 'false' });
    const auth = await db('auth');
    const root = await auth.query<{ id: number }>('select id from users where username = $1 and role = $2', [
      rootUsername,
      Role.Root,
    ]);
    expect(root.rows).toHaveLength(1);
    rootId = root.rows[0]!.id;
    const pending = await auth.query(
      'select id from outbox_messages where topic = $1 and published_at is null',
      ['identity.user'],
    );
    expect(pending.rowCount).toBe(1);

    // …and dies at once: nothing reaches the bus.
    await platform.services.auth.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(rootEvents).toHaveLength(0);

    // After a restart the event goes out, once, and billing opens the account.
    await platform.services.auth.start();
    await eventually(
      'the root user on identity.user',
      async () => (rootEvents.length > 0 ? true : undefined),
      60_000,
    );
    expect(rootEvents[0]).toMatchObject({ id: rootId, role: Role.Root });
    const billing = await db('billing');
    await eventually(
      'billing to open the root user’s account',
      async () =>
        (await billing.query('select 1 from accounts where user_id = $1', [rootId])).rowCount === 1
          ? true
          : undefined,
      60_000,
    );
    const published = await auth.query('select published_at from outbox_messages where topic = $1', [
      'identity.user',
    ]);
    expect(published.rows.every((r: { published_at: Date | null }) => r.published_at !== null)).toBe(true);
    expect(
      (await auth.query('select count(*)::int as n from users where role = $1', [Role.Root])).rows[0].n,
    ).toBe(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rootEvents).toHaveLength(1);
  });

  it('lets relay see what auth and billing published on compacted topics', async () => {
    const token = await signInternalToken({ userId: 1, role: Role.Root, via: 'session' }, secret);
    const entry = async (model: string, key: number) => {
      const res = await fetch(`${platform.services.relay.url}/internal/read-models/${model}/${key}`, {
        headers: { 'x-tollgate-identity': token },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { present: boolean; updated_at: number | null } }).data;
    };
    const seconds = (d: Date) => Math.floor(d.getTime() / 1000);
    const auth = await db('auth');
    const billing = await db('billing');
    const user = (
      await auth.query<{ updated_at: Date }>('select updated_at from users where id = $1', [rootId])
    ).rows[0]!;
    const account = (
      await billing.query<{ updated_at: Date }>('select updated_at from accounts where user_id = $1', [
        rootId,
      ])
    ).rows[0]!;
    // The entries relay holds are this run's: same key and same update time as the rows behind them.
    await eventually(
      'relay to see the user',
      async () => ((await entry('users', rootId)).updated_at === seconds(user.updated_at) ? true : undefined),
      30_000,
    );
    await eventually(
      'relay to see the balance',
      async () =>
        (await entry('balances', rootId)).updated_at === seconds(account.updated_at) ? true : undefined,
      30_000,
    );
  });

  it('refuses the internal read-model view without the gateway’s signed identity', async () => {
    const res = await fetch(`${platform.services.relay.url}/internal/read-models`);
    expect(res.status).toBe(401);
  });

  it('serves the system status through the gateway', async () => {
    const res = await fetch(`${platform.url}/api/status`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: Record<string, unknown> };
    expect(body.success).toBe(true);
    for (const field of [
      'chat_models',
      'github_client_id',
      'google_client_id',
      'discord_client_id',
      'discord_redirect_uri',
      'server_address',
      'github_oauth',
      'google_oauth',
      'discord_oauth',
    ]) {
      expect(body.data).toHaveProperty(field);
    }
  });
});
