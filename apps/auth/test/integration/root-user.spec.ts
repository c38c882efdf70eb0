import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { identityUserV1, Role, TOPICS, type IdentityUser } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { ConfigError } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  eventually,
  freePort,
  INFRASTRUCTURES,
  openInfrastructure,
  TopicRecorder,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAuth } from '../../src';

jest.setTimeout(60_000);

interface UserRow {
  id: number;
  username: string;
  password_hash: string | null;
  role: number;
}
interface OutboxRow {
  topic: string;
  key: string;
  published: boolean;
}

/** Long enough for the outbox relay (200 ms poll, nudged on commit) to have published anything pending. */
const PUBLISH_SETTLE_MS = 1_000;

describe.each(INFRASTRUCTURES)('auth on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let userEvents: TopicRecorder;
  const internalSecret = randomBytes(32).toString('hex');

  const authEnv = (database: TestDatabase, root: { username?: string; password?: string }): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: internalSecret,
    TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TOLLGATE_ROOT_USERNAME: root.username,
    TOLLGATE_ROOT_PASSWORD: root.password,
  });

  /** Starts auth, waits until it is ready, lets `whileRunning` look, and closes it. */
  const runAuth = async (
    env: Env,
    whileRunning: () => Promise<unknown> = async () => undefined,
  ): Promise<void> => {
    const auth = await startAuth(env, infra.runtime);
    try {
      await waitUntilReady(auth.url);
      await whileRunning();
    } finally {
      await auth.close();
    }
  };

  const readDatabase = (database: TestDatabase) =>
    withDatabase(database, async (query) => ({
      users: await query<UserRow>('select id, username, password_hash, role from users order by id'),
      outbox: await query<OutboxRow>(
        'select topic, key, published_at is not null as published from outbox_messages order by id',
      ),
    }));

  const eventsOf = (...usernames: string[]) =>
    userEvents.values<IdentityUser>((user) => usernames.includes(user.username));

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'auth-it');
    await infra.runtime.bus.ensureTopics([TOPICS.identityUser]);
    userEvents = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.identityUser.name,
      `auth-it.${infra.runId}`,
    );
  });

  afterAll(async () => {
    await userEvents?.stop();
    await infra?.close();
  });

  describe('with root credentials', () => {
    let database: TestDatabase;
    let username: string;
    const password = `root-pw-${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      database = await infra.createDatabase();
      username = `root_${infra.runId}`;
      await runAuth(authEnv(database, { username, password }), () =>
        eventually('the root user on identity.user', async () => eventsOf(username)[0]),
      );
    });

    it('creates exactly one root user, stored with an argon2id hash of the password', async () => {
      const { users } = await readDatabase(database);
      expect(users).toEqual([
        { id: expect.any(Number), username, password_hash: expect.any(String), role: Role.Root },
      ]);
      const hash = users[0]!.password_hash!;
      expect(hash).toMatch(/^\$argon2id\$/);
      expect(hash).not.toContain(password);
      await expect(argon2.verify(hash, password)).resolves.toBe(true);
    });

    it('publishes the root on identity.user through the outbox, without the password or its hash', async () => {
      const { users, outbox } = await readDatabase(database);
      const root = users[0]!;
      expect(outbox).toEqual([{ topic: TOPICS.identityUser.name, key: String(root.id), published: true }]);

      const events = userEvents.records.filter(
        (record) => (record.value as IdentityUser | null)?.username === username,
      );
      expect(events).toHaveLength(1);
      expect(events[0]!.key).toBe(String(root.id));
      // strict(): the event carries the contract's fields and nothing else.
      expect(identityUserV1.strict().parse(events[0]!.value)).toMatchObject({
        id: root.id,
        username,
        role: Role.Root,
      });
      const wire = JSON.stringify(events[0]);
      expect(wire).not.toContain(password);
      expect(wire).not.toContain(root.password_hash!);
    });

    it('creates no second root and publishes nothing when started again on the same database', async () => {
      const otherUsername = `other_${infra.runId}`;
      await runAuth(
        authEnv(database, { username: otherUsername, password: 'another-root-password' }),
        () => new Promise((resolve) => setTimeout(resolve, PUBLISH_SETTLE_MS)),
      );

      const { users, outbox } = await readDatabase(database);
      expect(users.map((user) => user.username)).toEqual([username]);
      expect(outbox).toHaveLength(1);
      expect(eventsOf(username, otherUsername)).toHaveLength(1);
    });
  });

  it('creates no root without TOLLGATE_ROOT_PASSWORD', async () => {
    const database = await infra.createDatabase();
    const username = `nopw_${infra.runId}`;
    await runAuth(authEnv(database, { username }));

    const { users, outbox } = await readDatabase(database);
    expect(users).toEqual([]);
    expect(outbox).toEqual([]);
    expect(eventsOf(username)).toEqual([]);
  });

  it('does not start when the configuration is invalid, and names every bad variable without secret values', async () => {
    const port = await freePort();
    const badUrl = 'not-a-database-url';
    const shortSecret = 'too-short-secret';
    const env: Env = {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: badUrl,
      TOLLGATE_INTERNAL_TOKEN_SECRET: shortSecret,
      TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };

    const error: unknown = await startAuth(env, infra.runtime).then(
      () => new Error('auth started with an invalid configuration'),
      (failure: unknown) => failure,
    );

    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((problem) => problem.variable).sort()).toEqual([
      'DATABASE_URL',
      'TOLLGATE_INTERNAL_TOKEN_SECRET',
    ]);
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('TOLLGATE_INTERNAL_TOKEN_SECRET');
    expect(message).not.toContain(badUrl);
    expect(message).not.toContain(shortSecret);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
