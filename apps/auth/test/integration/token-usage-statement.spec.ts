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

  /**
   * The plan PostgreSQL runs for the statement of a batch of `size` events on as many keys: the names of
   * the nodes that read `tokens`, and of each nested loop's inner side. Prepared as `queryRows` sends
   * it, with the plan kept after the fifth run (generic) and the first ones (custom) alike.
   */
  async function tokensPlan(
    keys: number[],
    size: number,
    mode: 'force_generic_plan' | 'force_custom_plan',
  ): Promise<{ tokens: string[]; nestedLoopInner: string[] }> {
    const captured: { sql: string; bindings: unknown[] }[] = [];
    const listener = (query: { sql: string; bindings?: unknown[] }) =>
      captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
    const knex = orm.em.getKnex();
    knex.on('query', listener);
    try {
      await repository.apply(Array.from({ length: size }, (_, i) => usage(keys[i], 1, 1_800_000_000)));
    } finally {
      knex.off('query', listener);
    }
    const statement = captured.find((query) => query.sql.includes('json_to_recordset'));
    if (!statement) throw new Error('no usage statement was sent');
    // knex reports the text with pg's $n placeholders.
    const text = statement.sql;
    expect(text).toContain(`$${statement.bindings.length}`);
    const batch = JSON.stringify(
      Array.from({ length: size }, (_, i) => ({
        ...usage(keys[i], 1, 1_800_000_000),
        event_id: randomUUID(),
      })),
    );
    const literal = (value: unknown) => `'${String(value).replace(/'/g, "''")}'`;
    const explained = await knex.transaction(async (trx) => {
      await trx.raw(`set local plan_cache_mode = ${mode}`);
      await trx.raw(`prepare token_usage_plan as ${text}`);
      try {
        const args = [batch, ...statement.bindings.slice(1)].map(literal).join(', ');
        const { rows } = await trx.raw<{ rows: { 'QUERY PLAN': [{ Plan: PlanNode }] }[] }>(
          `explain (format json) execute token_usage_plan(${args})`,
        );
        return rows[0]['QUERY PLAN'][0].Plan;
      } finally {
        await trx.raw('deallocate token_usage_plan');
      }
    });
    const tokens: string[] = [];
    const nestedLoopInner: string[] = [];
    const walk = (node: PlanNode) => {
      if (node['Relation Name'] === 'tokens') {
        tokens.push(node['Index Name'] ? `${node['Node Type']} ${node['Index Name']}` : node['Node Type']);
      }
      if (node['Node Type'] === 'Nested Loop' && node.Plans?.[1])
        nestedLoopInner.push(node.Plans[1]['Node Type']);
      node.Plans?.forEach(walk);
    };
    walk(explained);
    return { tokens, nestedLoopInner };
  }

  // json_to_recordset is estimated at 100 rows whatever the batch: joined plainly, a table of a few
  // thousand keys was scanned whole twice for one event (bench/ANALYSIS.md, H70).
  if (kind === 'real') {
    it('probes tokens by its primary key for a batch of a few keys, and joins it for 1,000, on a table of thousands of keys', async () => {
      const [{ first }] = await sql<{ first: number }>(
        `with "added" as (
           insert into tokens (user_id, name, key_hash, key_encrypted, key_masked, remain_quota, created_at, updated_at)
           select ?, 'plan ' || i, md5(random()::text || i), 'x', 'sk-…', 1000000, now(), now()
           from generate_series(1, 3000) i returning id
         ) select min(id)::int as "first" from "added"`,
        [userId],
      );
      await sql('analyze tokens');
      const keys = Array.from({ length: 1000 }, (_, i) => first + 3 * i);

      for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
        for (const size of [1, 3]) {
          const plan = await tokensPlan(keys, size, mode);
          // The lock ("locked") and the update ("written") each find their keys by the primary key.
          expect(plan.tokens).toEqual(['Index Scan tokens_pkey', 'ModifyTable', 'Index Scan tokens_pkey']);
        }
        const many = await tokensPlan(keys, 1000, mode);
        // Neither a probe per key (the lateral subquery) nor a CTE read again for each row of another.
        expect(many.nestedLoopInner).not.toContain('Subquery Scan');
        expect(many.nestedLoopInner).not.toContain('CTE Scan');
      }
    });
  }

  // Migration 20270106: the usage updates change no indexed column, so with room on the page they stay HOT.
  it('keeps half of every page of tokens free', async () => {
    const [table] = await sql<{ options: string[] | null }>(
      `select reloptions as options from pg_class where relname = 'tokens' and relkind = 'r'`,
    );
    expect(table?.options).toEqual(['fillfactor=50']);
  });
});

/** What EXPLAIN (FORMAT JSON) says of a plan node, as far as these specs read it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
