import { randomUUID } from 'node:crypto';
import { OutboxMessage, openDatabase, type Database, type TestDatabase } from '@tollgate/persistence';
import { INFRASTRUCTURES, randomUserId } from '@tollgate/testing';
import { Account } from '../../src/accounts/account.entity';
import { LedgerEntryKind } from '../../src/ledger/ledger-entry.entity';
import { LedgerService } from '../../src/ledger/ledger.service';
import { UsageSettlementRepository } from '../../src/usage/usage-settlement.repository';
import { BillingHarness } from './billing-harness';
import { aUsageEvent } from './builders';

jest.setTimeout(90_000);

/**
 * The ledger has no foreign key on accounts (20270103-ledger-without-account-check): its check ran
 * once per entry, through a plan each connection kept, which scanned all of accounts for every entry
 * when it had been made while accounts was a page or two (bench/ANALYSIS.md, H54). Its two writers
 * keep every entry with its account themselves.
 */
describe.each(INFRASTRUCTURES)('ledger entries without a foreign key on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-ledger-account-it');
  let database: TestDatabase;
  let orm: Database;

  beforeAll(async () => {
    await harness.open();
    database = await harness.migratedDatabase();
    orm = await openDatabase({
      url: database.url,
      embedded: database.embedded,
      entities: [OutboxMessage, Account],
      migrations: [],
    });
  });
  afterAll(async () => {
    await orm?.close(true);
    await harness.close();
  });

  const sql = <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    orm.em.getConnection().execute<T[]>(text, params);

  it('inserts ledger entries with no per-row trigger: no check of accounts runs per entry', async () => {
    // pg_trigger.tgtype bit 2 (4) is INSERT; the append-only trigger fires on update and delete only.
    const onInsert = await sql<{ tgname: string }>(
      `select tgname from pg_trigger where tgrelid = 'ledger_entries'::regclass and (tgtype & 4) <> 0`,
    );
    expect(onInsert).toEqual([]);
  });

  it("settling a user billing has not seen opens the user's account in the same statement as the entries", async () => {
    const [known, unseen] = [randomUserId(), randomUserId()];
    await sql('insert into accounts (user_id, quota) values (?, 1000)', [known]);
    const repository = new UsageSettlementRepository(orm.em.fork());
    await repository.settle([aUsageEvent(known, { quota: 10 }), aUsageEvent(unseen, { quota: 20 })]);

    const withoutAccount = await sql<{ user_id: number }>(
      `select e.user_id from ledger_entries e
       where not exists (select 1 from accounts a where a.user_id = e.user_id)`,
    );
    expect(withoutAccount).toEqual([]);
    const balances = await sql<{ user_id: number; quota: string }>(
      'select user_id, quota::text as quota from accounts where user_id in (?, ?) order by user_id',
      [known, unseen],
    );
    expect(balances).toEqual(
      [
        { user_id: known, quota: '990' },
        { user_id: unseen, quota: '-20' },
      ].sort((a, b) => a.user_id - b.user_id),
    );
  });

  it('a posting to a user without an account is refused and writes no entry', async () => {
    const userId = randomUserId();
    const idempotencyKey = `test:${randomUUID()}`;
    await expect(
      orm.em
        .fork()
        .transactional((em) =>
          new LedgerService().post(em, [
            { userId, kind: LedgerEntryKind.AdminAdjustment, amount: 500, idempotencyKey },
          ]),
        ),
    ).rejects.toThrow('cannot post to users without an account');
    expect(await sql('select 1 from ledger_entries where idempotency_key = ?', [idempotencyKey])).toEqual([]);
  });
});
