import { randomBytes } from 'node:crypto';
import { Role } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  waitUntilReady,
  withDatabase,
  type JsonResponse,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(60_000);

describe.each(INFRASTRUCTURES)('billing ledger audit on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  const secret = randomBytes(32).toString('hex');

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
  });

  /** On PGlite the service holds the one connection, so the database is written while billing is stopped. */
  const runBilling = async <T>(
    database: TestDatabase,
    whileRunning: (url: string) => Promise<T>,
  ): Promise<T> => {
    const billing = await startBilling(billingEnv(database), infra.runtime);
    try {
      await waitUntilReady(billing.url);
      return await whileRunning(billing.url);
    } finally {
      await billing.close();
    }
  };

  const asRole = async (role: Role) => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
      { userId: randomUserId(), role, via: 'session' },
      secret,
    ),
  });

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-ledger-it');
  });

  afterAll(async () => {
    await infra?.close();
  });

  it('reports to admins exactly the accounts whose balance is not the sum of their entries, and keeps entries append-only', async () => {
    const database = await infra.createDatabase();
    await runBilling(database, async () => undefined); // migrates
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

    const [asAdmin, asUser] = await runBilling(database, async (url) => [
      await getJson(`${url}/api/log/ledger-audit`, await asRole(Role.Admin)),
      await getJson(`${url}/api/log/ledger-audit`, await asRole(Role.User)),
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
