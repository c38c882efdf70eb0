import { ACCOUNT_SET_QUOTA_CALL, servicePath, TOPICS } from '@tollgate/contracts';
import { INFRASTRUCTURES, randomUserId, withDatabase } from '@tollgate/testing';
import { BillingHarness, type Answer, type Caller } from './billing-harness';

jest.setTimeout(60_000);

describe.each(INFRASTRUCTURES)('billing admin adjustments on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-adjustments-it');

  beforeAll(() => harness.open());
  afterAll(() => harness.close());

  it('sets a balance through the service call as one adjustment entry of the difference, once per idempotency key, and refuses callers without a service token', async () => {
    const database = await harness.createDatabase();
    const userId = randomUserId();
    const path = servicePath(ACCOUNT_SET_QUOTA_CALL, { userId });
    const { answers, audit } = await harness.run(database, async (billing) => {
      const setQuota = (body: unknown, caller: Caller = billing.asService(ACCOUNT_SET_QUOTA_CALL)) =>
        caller.send(ACCOUNT_SET_QUOTA_CALL.method, path, body);
      const answers: Answer[] = [
        await setQuota({ quota: 2_500_000, idempotency_key: 'set-1', actor_id: 1, reason: 'pilot' }),
        await setQuota({ quota: 2_500_000, idempotency_key: 'set-1', actor_id: 1 }),
        await setQuota({ quota: 1_000_000, idempotency_key: 'set-2', actor_id: 1 }),
        await setQuota({ quota: 1_000_000, idempotency_key: 'set-3', actor_id: 1 }),
        await setQuota({ quota: 5, idempotency_key: 'no-token', actor_id: 1 }, billing.anonymous()),
        await setQuota(
          { quota: 5, idempotency_key: 'wrong-audience', actor_id: 1 },
          billing.asService('admin:channel-status'),
        ),
        await setQuota({ quota: -1, idempotency_key: 'negative', actor_id: 1 }),
      ];
      return { answers, audit: (await billing.asRoot(1).get('/api/log/ledger-audit')).body };
    });

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
    // The audit tells each change from the balance before it, not the balance it set.
    const audits = await withDatabase(database, (query) =>
      query<{ value: { action: string; before: unknown; after: unknown; changed: string[] } }>(
        'select value from outbox_messages where topic = ? order by id',
        [TOPICS.auditRecorded.name],
      ),
    );
    expect(audits.map(({ value }) => [value.action, value.before, value.after, value.changed])).toEqual([
      ['balance.set', { quota: 0 }, { quota: 2_500_000, reason: 'pilot' }, ['quota', 'reason']],
      ['balance.set', { quota: 2_500_000 }, { quota: 1_000_000, reason: null }, ['quota']],
    ]);
  });
});
