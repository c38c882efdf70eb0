import { INFRASTRUCTURES, randomUserId, withDatabase, type JsonResponse } from '@tollgate/testing';
import { BillingHarness } from './billing-harness';

jest.setTimeout(60_000);

describe.each(INFRASTRUCTURES)('billing ledger audit on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-ledger-it');

  beforeAll(() => harness.open());
  afterAll(() => harness.close());

  it('reports to admins exactly the accounts whose balance is not the sum of their entries, and keeps entries append-only', async () => {
    // On PGlite the service holds the one connection, so the database is written while billing is stopped.
    const database = await harness.migratedDatabase();
    const [balanced, tampered, empty] = [randomUserId(), randomUserId(), randomUserId()];
    const refusals = await withDatabase(database, async (query) => {
      await query('insert into accounts (user_id, quota) values (?, 400), (?, 999), (?, 0)', [
        balanced,
        tampered,
        empty,
      ]);
      await query(
        `insert into ledger_entries (user_id, kind, amount, idempotency_key) values
          (?, 'top_up', 500, ?), (?, 'usage', -100, ?), (?, 'top_up', 500, ?)`,
        [balanced, `k1-${balanced}`, balanced, `k2-${balanced}`, tampered, `k3-${tampered}`],
      );
      const attempts = [
        query('update ledger_entries set amount = 999 where user_id = ?', [balanced]),
        query('delete from ledger_entries where user_id = ?', [balanced]),
        query(
          `insert into ledger_entries (user_id, kind, amount, idempotency_key) values (?, 'top_up', 1, ?)`,
          [balanced, `k1-${balanced}`],
        ),
      ];
      return Promise.all(
        attempts.map((attempt) =>
          attempt.then(
            () => 'accepted',
            (error: Error) => error.message,
          ),
        ),
      );
    });

    const [asAdmin, asUser] = await harness.run(database, async (billing) => [
      await billing.asAdmin().get('/api/log/ledger-audit'),
      await billing.asUser(randomUserId()).get('/api/log/ledger-audit'),
    ]);

    expect(refusals).toEqual([
      expect.stringContaining('append-only'),
      expect.stringContaining('append-only'),
      expect.stringContaining('idempotency_key'),
    ]);
    expect(asAdmin).toEqual<JsonResponse>({
      status: 200,
      body: { success: true, message: '', data: [{ user_id: tampered, quota: 999, ledger_sum: 500 }] },
    });
    expect(asUser.status).toBe(403);
  });
});
