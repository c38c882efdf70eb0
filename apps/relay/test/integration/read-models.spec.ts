import { randomBytes } from 'node:crypto';
import { Role, TOPICS, type BillingBalance, type Envelope } from '@tollgate/contracts';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import {
  anIdentityUser,
  eventually,
  getJson,
  INFRASTRUCTURES,
  randomUserId,
  waitUntilReady,
} from '@tollgate/testing';
import { CatchUpGate } from '../support/catch-up-gate';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(60_000);

interface Entry {
  present: boolean;
  version: number | null;
}
type Tables = Record<string, { topic: string; size: number; caught_up: boolean }>;

describe.each(INFRASTRUCTURES)('relay on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-it');
  const gate = new CatchUpGate();
  let relay: Relay;

  const asRole = async (role: Role): Promise<Record<string, string>> => ({
    [INTERNAL_IDENTITY_HEADER]: await signInternalToken({ userId: 1, role, via: 'session' }, harness.secret),
  });
  const readModels = async <T>(path: string, role: Role = Role.Root) =>
    getJson<Envelope<T>>(`${relay.url}/internal/read-models${path}`, await asRole(role));

  beforeAll(async () => {
    await harness.open();
    // Not ready until the gate opens: the first test looks at it before.
    relay = await harness.start({
      runtime: { ...harness.infra.runtime, bus: gate.wrap(harness.bus) },
      ready: false,
    });
  });

  afterAll(() => harness.close());

  it('is not ready until its read models have caught up, and ready after', async () => {
    const before = await getJson(`${relay.url}/health/ready`);
    expect(before.status).toBe(503);
    expect(before.body).toEqual({
      status: 'unavailable',
      failures: [{ check: 'read-models', reason: expect.stringContaining('catching up') }],
    });
    expect((await getJson(`${relay.url}/health`)).status).toBe(200);

    gate.open();
    await waitUntilReady(relay.url);
    const after = await getJson(`${relay.url}/health/ready`);
    expect(after.body).toEqual({ status: 'ok', checks: ['read-models'] });
    const tables = await readModels<Tables>('');
    expect(tables.status).toBe(200);
    expect(Object.keys(tables.body.data!).sort()).toEqual([
      'balances',
      'channels',
      'prices',
      'tokens',
      'users',
    ]);
    expect(Object.values(tables.body.data!).every((table) => table.caught_up)).toBe(true);
  });

  it('shows a billing.balance and an identity.user published after start', async () => {
    const userId = randomUserId();
    const now = Math.floor(Date.now() / 1000);
    const balance: BillingBalance = {
      v: 1,
      user_id: userId,
      quota: 500_000,
      used_quota: 0,
      request_count: 0,
      aff_quota: 0,
      aff_history_quota: 0,
      version: 7,
      updated_at: now,
    };
    const user = anIdentityUser(userId, now);
    await expect(readModels<Entry>(`/balances/${userId}`)).resolves.toMatchObject({
      body: { data: { present: false } },
    });

    await harness.bus.publish([
      { topic: TOPICS.billingBalance.name, key: String(userId), value: balance },
      { topic: TOPICS.identityUser.name, key: String(userId), value: user },
    ]);

    const entryOf = (name: string) =>
      eventually(`${name}/${userId} in relay's read models`, async () => {
        const { body } = await readModels<Entry>(`/${name}/${userId}`);
        return body.data?.present ? body.data : undefined;
      });
    await expect(entryOf('balances')).resolves.toEqual({ present: true, version: 7, updated_at: now });
    await expect(entryOf('users')).resolves.toEqual({ present: true, version: null, updated_at: now });
  });

  it('answers 401 without a valid identity token and 403 for a caller below root', async () => {
    const anonymous = await getJson<Envelope<unknown>>(`${relay.url}/internal/read-models`);
    expect(anonymous).toEqual({ status: 401, body: { success: false, message: expect.any(String) } });

    const forged = await signInternalToken(
      { userId: 1, role: Role.Root, via: 'session' },
      randomBytes(32).toString('hex'),
    );
    const wrongSecret = await getJson(`${relay.url}/internal/read-models`, {
      [INTERNAL_IDENTITY_HEADER]: forged,
    });
    expect(wrongSecret.status).toBe(401);

    const admin = await readModels<unknown>('/balances/1', Role.Admin);
    expect(admin).toEqual({ status: 403, body: { success: false, message: expect.any(String) } });
  });

  it('answers 404 for a read model it does not have', async () => {
    const unknown = await readModels<unknown>('/invoices/1');
    expect(unknown).toEqual({
      status: 404,
      body: { success: false, message: expect.stringContaining('invoices') },
    });
  });
});
