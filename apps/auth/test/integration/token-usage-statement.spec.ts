import { randomUUID } from 'node:crypto';
import { TOPICS, TokenStatus } from '@tollgate/contracts';
import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  openDatabase,
  OutboxRelay,
  type Database,
} from '@tollgate/persistence';
import { runWithRequestContext } from '@tollgate/platform';
import { INFRASTRUCTURES, openInfrastructure, type TestInfrastructureWithDatabase } from '@tollgate/testing';
import { AUTH_MIGRATIONS } from '../../src/migrations/auth-migrations';
import { AppliedUsageEvent } from '../../src/token-usage/applied-usage-event.entity';
import type { UsageOfToken } from '../../src/token-usage/token-usage';
import { TokenUsageRepository } from '../../src/token-usage/token-usage.repository';
import { identityTokenEvent } from '../../src/tokens/token-events';
import { Token } from '../../src/tokens/token.entity';
import { User } from '../../src/users/user.entity';

jest.setTimeout(90_000);

const usage = (token_id: number | null, quota: number, created_at: number): UsageOfToken => ({
  event_id: randomUUID(),
  token_id,
  quota,
  created_at,
});

/** Token usage's repository alone on a migrated database, and what it leaves in the tables. */
describe.each(INFRASTRUCTURES)('token usage statement on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let orm: Database;
  let repository: TokenUsageRepository;
  let userId: number;
  /** Every statement sent to the database (BEGIN and COMMIT included), in order. */
  const statements: string[] = [];

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'auth-token-usage-statement-it');
    const database = await infra.createDatabase();
    orm = await openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: [OutboxMessage, User, Token, AppliedUsageEvent],
      migrations: [Migration20261122000000CreateOutboxMessages, ...AUTH_MIGRATIONS],
    });
    const [user] = await sql<{ id: number }>(
      `insert into users (username, display_name) values ('statement', 'statement') returning id`,
    );
    userId = user.id;
    orm.em.getKnex().on('query', (query: { sql: string }) => statements.push(query.sql));
    // Not started: the rows stay in the outbox for the test to read.
    const relay = new OutboxRelay({
      em: orm.em,
      bus: infra.runtime.bus,
      logger: { warn: () => undefined },
    });
    repository = new TokenUsageRepository(orm.em, relay);
  });
  afterAll(async () => {
    await orm?.close(true);
    await infra?.close();
  });

  function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return orm.em.getConnection().execute<T[]>(text, params);
  }
  const lastOutboxId = async (): Promise<number> =>
    Number((await sql<{ id: string | null }>('select max(id)::text as id from outbox_messages'))[0]?.id ?? 0);
  const outbox = (after: number) =>
    sql<{ topic: string; key: string; value: unknown; headers: Record<string, string> }>(
      'select topic, key, value, headers from outbox_messages where id > ? order by id',
      [after],
    );
  const token = (id: number): Promise<Token> => orm.em.fork().findOneOrFail(Token, { id });
  const aKey = async (columns: Record<string, unknown>): Promise<number> => {
    const names = Object.keys(columns);
    const [row] = await sql<{ id: number }>(
      `insert into tokens (user_id, name, key_hash, key_encrypted, key_masked, created_at, updated_at, ${names
        .map((name) => `"${name}"`)
        .join(', ')})
       values (?, 'k', ?, 'x', 'sk-…', now(), now(), ${names.map(() => '?').join(', ')}) returning id`,
      [userId, randomUUID(), ...Object.values(columns)],
    );
    return row.id;
  };

  it('charges many keys of one batch in one statement, each once, publishing each as identityTokenEvent of the key as stored', async () => {
    const accessedLater = new Date(1_900_000_000_000);
    const limited = await aKey({ remain_quota: 1000, accessed_at: accessedLater, model_limits: '["a"]' });
    const spent = await aKey({ remain_quota: 100 });
    const disabled = await aKey({ remain_quota: 100, status: TokenStatus.Disabled });
    const unlimited = await aKey({ remain_quota: 0, unlimited_quota: true, rpm_limit: 7 });
    const batch = [
      usage(unlimited, 500, 1_800_000_050),
      usage(limited, 300, 1_800_000_000),
      usage(spent, 130, 1_800_000_010),
      usage(limited, 200, 1_800_000_100),
      usage(disabled, 100, 1_800_000_020),
      usage(null, 900, 1_800_000_030),
      usage(2_000_000_000, 900, 1_800_000_040),
    ];
    const before = await lastOutboxId();
    statements.length = 0;

    const changed = await runWithRequestContext({ requestId: 'r-46', correlationId: 'c-46' }, () =>
      repository.apply(batch),
    );

    expect(statements).toHaveLength(1);
    expect(changed).toBe(4);
    expect(await token(limited)).toMatchObject({
      usedQuota: 500,
      remainQuota: 500,
      status: TokenStatus.Enabled,
      accessedAt: accessedLater,
    });
    expect(await token(spent)).toMatchObject({
      usedQuota: 130,
      remainQuota: 0,
      status: TokenStatus.Exhausted,
      accessedAt: new Date(1_800_000_010_000),
    });
    expect(await token(disabled)).toMatchObject({
      usedQuota: 100,
      remainQuota: 0,
      status: TokenStatus.Disabled,
    });
    expect(await token(unlimited)).toMatchObject({
      usedQuota: 500,
      remainQuota: 0,
      status: TokenStatus.Enabled,
    });
    const rows = await outbox(before);
    const ids = [limited, spent, disabled, unlimited].sort((a, b) => a - b);
    expect(rows.map((row) => row.key)).toEqual(ids.map(String));
    for (const row of rows) {
      const expected = identityTokenEvent(await token(Number(row.key)));
      expect(row).toEqual({
        topic: TOPICS.identityToken.name,
        key: expected.key,
        value: expected.value,
        headers: { 'x-request-id': 'r-46', 'x-correlation-id': 'c-46' },
      });
    }
  });

  it('changes nothing for a batch delivered again, publishing no key', async () => {
    const key = await aKey({ remain_quota: 1000 });
    const batch = [usage(key, 300, 1_800_000_000), usage(key, 200, 1_800_000_100)];
    await repository.apply(batch);
    const stored = await token(key);
    const before = await lastOutboxId();

    expect(await repository.apply(batch)).toBe(0);
    expect(await outbox(before)).toEqual([]);
    expect(await token(key)).toEqual(stored);
  });

  // Migration 20270106: the usage updates change no indexed column, so with room on the page they stay HOT.
  it('keeps half of every page of tokens free', async () => {
    const [table] = await sql<{ options: string[] | null }>(
      `select reloptions as options from pg_class where relname = 'tokens' and relkind = 'r'`,
    );
    expect(table?.options).toEqual(['fillfactor=50']);
  });
});
