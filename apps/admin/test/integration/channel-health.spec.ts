import { randomBytes } from 'node:crypto';
import {
  channelPageSchema,
  channelViewSchema,
  type ChannelPage,
  type ChannelView,
} from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';
import { StandInRelay } from './stand-in-relay';

jest.setTimeout(60_000);

const aChannel = (overrides: Record<string, unknown> = {}) => ({
  type: 1,
  name: `health ${randomBytes(4).toString('hex')}`,
  key: `sk-health-${randomBytes(16).toString('hex')}`,
  base_url: 'https://upstream.example.test',
  models: 'gpt-4o-mini',
  test_model: 'gpt-4o-mini',
  ...overrides,
});

describe.each(INFRASTRUCTURES)('channel health in the admin list on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService;
  let client: AdminClient;
  let relay: StandInRelay;
  const secret = randomBytes(32).toString('hex');

  const create = async (body: Record<string, unknown> = aChannel()): Promise<ChannelView> => {
    const answer = await client.call<ChannelView>('/api/channel/', { method: 'POST', body });
    expect(answer.status).toBe(200);
    return channelViewSchema.parse(answer.body.data);
  };
  const read = async (id: number): Promise<ChannelView> => {
    const answer = await client.call<ChannelView>(`/api/channel/${id}`);
    expect(answer.status).toBe(200);
    return channelViewSchema.strict().parse(answer.body.data);
  };
  const listed = async (id: number): Promise<ChannelView | undefined> => {
    const answer = await client.call<ChannelPage>('/api/channel/?p=1&page_size=100');
    expect(answer.status).toBe(200);
    return channelPageSchema.parse(answer.body.data).items.find((channel) => channel.id === id);
  };

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-channel-health-it');
    relay = await StandInRelay.start(secret);
    const database = await infra.createDatabase();
    admin = await startAdmin(
      adminEnv(database.url, secret, randomBytes(32), { RELAY_URL: relay.url }),
      infra.runtime,
    );
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  });

  afterAll(async () => {
    await admin?.close();
    await relay?.close();
    await infra?.close();
  });

  it('keeps a failed test as test_error beside its time, and clears it when a later test passes', async () => {
    const channel = await create();
    expect(channel.test_error).toBeNull();

    relay.outcomes.set(channel.name, {
      success: false,
      time_ms: 2,
      message: 'HTTP 401 Unauthorized: invalid api key',
    });
    const failed = await client.call(`/api/channel/test/${channel.id}`);
    expect(failed.body.success).toBe(false);
    expect(await read(channel.id)).toMatchObject({
      test_error: 'HTTP 401 Unauthorized: invalid api key',
      response_time: 2,
      test_time: expect.any(Number),
    });
    expect((await read(channel.id)).test_time).toBeGreaterThan(0);
    expect((await listed(channel.id))?.test_error).toBe('HTTP 401 Unauthorized: invalid api key');

    relay.outcomes.set(channel.name, { success: true, time_ms: 40, message: '' });
    const passed = await client.call(`/api/channel/test/${channel.id}`);
    expect(passed.body.success).toBe(true);
    expect(await read(channel.id)).toMatchObject({ test_error: null, response_time: 40 });
  });

  it("shows relay's open breaker on the held channel in the list and the single read, null elsewhere", async () => {
    const held = await create();
    const healthy = await create();
    const nextTrialAt = Math.floor(Date.now() / 1000) + 30;
    relay.breakers = { channels: [{ id: held.id, state: 'open', next_trial_at: nextTrialAt }] };

    expect((await listed(held.id))?.breaker).toEqual({ state: 'open', until: nextTrialAt });
    expect((await read(held.id)).breaker).toEqual({ state: 'open', until: nextTrialAt });
    expect((await listed(healthy.id))?.breaker).toBeNull();
    expect((await read(healthy.id)).breaker).toBeNull();
  });

  it('answers the list whole, without breakers, while relay cannot say', async () => {
    const held = await create();
    relay.breakers = { channels: [{ id: held.id, state: 'half_open', next_trial_at: null }] };
    relay.breakersDown = true;
    try {
      expect(await listed(held.id)).toMatchObject({ id: held.id, name: held.name, breaker: null });
    } finally {
      relay.breakersDown = false;
    }
    expect((await listed(held.id))?.breaker).toEqual({ state: 'half_open', until: null });
  });
});
