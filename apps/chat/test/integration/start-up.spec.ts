import { randomBytes } from 'node:crypto';
import { Migration20261122000000CreateOutboxMessages } from '@tollgate/persistence';
import {
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startChat } from '../../src';
import { ChatsMigration } from '../../src/migrations/20261226-chats.migration';

jest.setTimeout(60_000);

describe.each(INFRASTRUCTURES)('chat on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'chat-it');
  });

  afterAll(async () => {
    await infra?.close();
  });

  it('starts on an empty database, migrates it and becomes ready', async () => {
    const database = await infra.createDatabase();
    const chat = await startChat(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        DATABASE_URL: database.url,
        TOLLGATE_INTERNAL_TOKEN_SECRET: randomBytes(32).toString('hex'),
        TOLLGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      },
      infra.runtime,
    );
    try {
      await waitUntilReady(chat.url);
      expect(await getJson(`${chat.url}/health/ready`)).toEqual({
        status: 200,
        body: { status: 'ok', checks: ['database'] },
      });
    } finally {
      await chat.close();
    }

    const { migrations, outbox } = await withDatabase(database, async (query) => ({
      migrations: await query<{ name: string }>('select name from mikro_orm_migrations order by id'),
      outbox: await query<{ pending: string }>('select count(*) as pending from outbox_messages'),
    }));
    expect(migrations.map((migration) => migration.name)).toEqual([
      Migration20261122000000CreateOutboxMessages.name,
      ChatsMigration.name,
    ]);
    expect(outbox).toEqual([{ pending: '0' }]);
  });
});
