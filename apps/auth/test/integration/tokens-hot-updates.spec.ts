import {
  Migration20261122000000CreateOutboxMessages,
  OutboxMessage,
  openDatabase,
  type Database,
} from '@tollgate/persistence';
import { INFRASTRUCTURES, openInfrastructure, type TestInfrastructureWithDatabase } from '@tollgate/testing';
import { AUTH_MIGRATIONS } from '../../src/migrations/auth-migrations';
import { AppliedUsageEvent } from '../../src/token-usage/applied-usage-event.entity';
import { Token } from '../../src/tokens/token.entity';
import { User } from '../../src/users/user.entity';

jest.setTimeout(90_000);

/** API keys' pages keep room for the usage consumer's updates of them. */
describe.each(INFRASTRUCTURES)("API keys' HOT updates on %s infrastructure", (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let orm: Database;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'auth-tokens-hot-updates-it');
    const database = await infra.createDatabase();
    orm = await openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: [OutboxMessage, User, Token, AppliedUsageEvent],
      migrations: [Migration20261122000000CreateOutboxMessages, ...AUTH_MIGRATIONS],
    });
  });
  afterAll(async () => {
    await orm?.close(true);
    await infra?.close();
  });

  function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return orm.em.getConnection().execute<T[]>(text, params);
  }

  it('keeps half of every page of tokens free', async () => {
    const [table] = await sql<{ options: string[] | null }>(
      `select reloptions as options from pg_class where relname = 'tokens' and relkind = 'r'`,
    );
    expect(table?.options).toEqual(['fillfactor=50']);
  });
});
