import { randomBytes } from 'node:crypto';
import { TOPICS, type ChannelView } from '@tollgate/contracts';
import type { RunningService } from '@tollgate/runtime';
import {
  INFRASTRUCTURES,
  openInfrastructure,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import { startAdmin } from '../../src';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(90_000);

const aChannel = (baseUrl: string) => ({
  type: 1,
  name: `ssrf ${randomBytes(4).toString('hex')}`,
  key: `sk-${randomBytes(16).toString('hex')}`,
  base_url: baseUrl,
  models: 'gpt-4o-mini',
});

/**
 * Server-side request forgery through a channel's base URL: relay calls whatever address a channel
 * names, so an administrator could aim it at the cloud metadata service or at the operator's own
 * network. Every non-public range is refused unless CHANNEL_BASE_URL_ALLOWED_RANGES names it.
 */
describe.each(INFRASTRUCTURES)('channel base URLs on %s infrastructure', (kind) => {
  const secret = randomBytes(32).toString('hex');
  const masterKey = randomBytes(32);
  let infra: TestInfrastructureWithDatabase;
  let admin: RunningService | undefined;
  let client: AdminClient;

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-ssrf-it');
    await infra.runtime.bus.ensureTopics([TOPICS.catalogChannel, TOPICS.catalogOption]);
  });
  afterEach(async () => {
    await admin?.close();
    admin = undefined;
  });
  afterAll(async () => {
    await infra?.close();
  });

  async function startWith(extra: Record<string, string | undefined>): Promise<void> {
    const database = await infra.createDatabase();
    admin = await startAdmin(
      adminEnv(database.url, secret, masterKey, { RELAY_URL: 'http://127.0.0.1:9', ...extra }),
      infra.runtime,
    );
    await waitUntilReady(admin.url);
    client = new AdminClient(admin.url, secret);
  }
  const create = (baseUrl: string) =>
    client.call<ChannelView>('/api/channel/', { method: 'POST', body: aChannel(baseUrl) });

  it('refuses every non-public host by default, in any notation, on create and on update', async () => {
    // The tests' operator allows loopback for the fake upstreams (TEST_OPERATOR_ENV); this admin is left at the default.
    await startWith({ CHANNEL_BASE_URL_ALLOWED_RANGES: undefined });

    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:169.254.169.254]/',
      'http://[fe80::1]/',
      'http://0.0.0.0:8080',
      'http://127.0.0.1:11434',
      'http://2130706433/',
      'http://localhost:8000',
      'http://192.168.1.5',
      'http://10.0.0.7:8000/v1',
    ]) {
      const answer = await create(url);
      expect({ url, status: answer.status, success: answer.body.success }).toEqual({
        url,
        status: 400,
        success: false,
      });
      // Russian by default: admin answers in the caller's language.
      expect(answer.body.message).toMatch(
        /^base_url: адрес ведёт в диапазон (link-local|unspecified|loopback|private), который CHANNEL_BASE_URL_ALLOWED_RANGES не разрешает: укажите публичный адрес или добавьте \1 в эту переменную$/,
      );
    }
    const created = await create('https://api.openai.com');
    expect(created.status).toBe(200);
    const channel = created.body.data!;

    const moved = await client.call('/api/channel/', {
      method: 'PUT',
      body: { id: channel.id, base_url: 'http://10.0.0.7' },
      language: 'en',
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toBe(
      'base_url: points into a private address range, which CHANNEL_BASE_URL_ALLOWED_RANGES does not allow: give a public address, or add private to that variable',
    );
    const list = await client.call<{ items: ChannelView[] }>('/api/channel/?p=1&page_size=100');
    expect(list.body.data!.items.map((item) => item.base_url)).toEqual(['https://api.openai.com']);
  });

  it('lets the operator allow loopback and private hosts for self-hosted upstreams, and still refuses the ranges not named', async () => {
    await startWith({ CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback,private' });

    expect((await create('http://127.0.0.1:11434')).status).toBe(200);
    expect((await create('http://10.0.0.7:8000/v1')).status).toBe(200);
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://0.0.0.0:8080']) {
      const answer = await create(url);
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
    }

    const list = await client.call<{ items: ChannelView[] }>('/api/channel/?p=1&page_size=100');
    expect(list.body.data!.items.map((channel) => channel.base_url).sort()).toEqual([
      'http://10.0.0.7:8000/v1',
      'http://127.0.0.1:11434',
    ]);
  });

  it('does not start with a range it does not know', async () => {
    const database = await infra.createDatabase();
    await expect(
      startAdmin(
        adminEnv(database.url, secret, masterKey, { CHANNEL_BASE_URL_ALLOWED_RANGES: 'loopback,intranet' }),
        infra.runtime,
      ),
    ).rejects.toThrow(/CHANNEL_BASE_URL_ALLOWED_RANGES/);
  });
});
