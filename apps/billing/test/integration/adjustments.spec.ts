import { randomBytes } from 'node:crypto';
import { ACCOUNT_SET_QUOTA_CALL, Role, servicePath } from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import {
  INTERNAL_IDENTITY_HEADER,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
  signInternalToken,
} from '@tollgate/platform';
import type { Env } from '@tollgate/runtime';
import {
  getJson,
  INFRASTRUCTURES,
  openInfrastructure,
  randomUserId,
  waitUntilReady,
  withDatabase,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startBilling } from '../../src';

jest.setTimeout(60_000);

interface Answer {
  status: number;
  body: { success: boolean; message: string; data?: unknown };
}

describe.each(INFRASTRUCTURES)('billing admin adjustments on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  const secret = randomBytes(32).toString('hex');

  const billingEnv = (database: TestDatabase): Env => ({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
  });

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'billing-adjustments-it');
  });

  afterAll(async () => {
    await infra?.close();
  });

  it('sets a balance through the service call as one adjustment entry of the difference, once per idempotency key, and refuses callers without a service token', async () => {
    const database = await infra.createDatabase();
    const userId = randomUserId();
    const signer = new ServiceTokenSigner(secret, ACCOUNT_SET_QUOTA_CALL.audience);
    const otherAudience = new ServiceTokenSigner(secret, 'admin:channel-status');
    const billing = await startBilling(billingEnv(database), infra.runtime);
    const setQuota = async (body: unknown, token?: string): Promise<Answer> => {
      const response = await fetch(`${billing.url}${servicePath(ACCOUNT_SET_QUOTA_CALL, { userId })}`, {
        method: ACCOUNT_SET_QUOTA_CALL.method,
        headers: { 'content-type': 'application/json', ...(token ? { [SERVICE_TOKEN_HEADER]: token } : {}) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Answer['body'] };
    };
    let answers: Answer[];
    let audit: unknown;
    try {
      await waitUntilReady(billing.url);
      const token = await signer.token();
      answers = [
        await setQuota({ quota: 2_500_000, idempotency_key: 'set-1', actor_id: 1, reason: 'pilot' }, token),
        await setQuota({ quota: 2_500_000, idempotency_key: 'set-1', actor_id: 1 }, token),
        await setQuota({ quota: 1_000_000, idempotency_key: 'set-2', actor_id: 1 }, token),
        await setQuota({ quota: 1_000_000, idempotency_key: 'set-3', actor_id: 1 }, token),
        await setQuota({ quota: 5, idempotency_key: 'no-token', actor_id: 1 }),
        await setQuota(
          { quota: 5, idempotency_key: 'wrong-audience', actor_id: 1 },
          await otherAudience.token(),
        ),
        await setQuota({ quota: -1, idempotency_key: 'negative', actor_id: 1 }, token),
      ];
      audit = (
        await getJson(`${billing.url}/api/log/ledger-audit`, {
          [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
            { userId: 1, role: Role.Root, via: 'session' },
            secret,
          ),
        })
      ).body;
    } finally {
      await billing.close();
    }

    expect(answers.map((answer) => [answer.status, answer.body.data])).toEqual([
      [200, { user_id: userId, quota: 2_500_000, delta: 2_500_000 }],
      [200, { user_id: userId, quota: 2_500_000, delta: 2_500_000 }],
      [200, { user_id: userId, quota: 1_000_000, delta: -1_500_000 }],
      [200, { user_id: userId, quota: 1_000_000, delta: 0 }],
      [401, undefined],
      [401, undefined],
      [400, undefined],
    ]);
    expect(audit).toEqual({ success: true, message: '', data: [] });
    const entries = await withDatabase(database, (query) =>
      query<{ kind: string; amount: string; note: string }>(
        'select kind, amount, note from ledger_entries where user_id = ? order by id',
        [userId],
      ),
    );
    expect(entries).toEqual([
      { kind: 'admin_adjustment', amount: '2500000', note: 'set by admin 1: pilot' },
      { kind: 'admin_adjustment', amount: '-1500000', note: 'set by admin 1' },
    ]);
  });
});
