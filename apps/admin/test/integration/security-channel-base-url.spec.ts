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
 * network. The non-public ranges are refused unless CHANNEL_BASE_URL_ALLOWED_RANGES names them.
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

  async function startWith(extra: Record<string, string>): Promise<void> {
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

  it('refuses link-local and unspecified hosts by default, in any notation, and keeps loopback and private ones for self-hosted upstreams', async () => {
    await startWith({});

    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:169.254.169.254]/',
      'http://[fe80::1]/',
      'http://0.0.0.0:8080',
    ]) {
      const answer = await create(url);
      expect({ url, status: answer.status, success: answer.body.success }).toEqual({
        url,
        status: 400,
        success: false,
      });
      expect(answer.body.message).toMatch(/base_url: points into a (link-local|unspecified) address range/);
    }
    expect((await create('http://127.0.0.1:11434')).status).toBe(200);
    expect((await create('http://10.0.0.7:8000/v1')).status).toBe(200);
    expect((await create('https://api.openai.com')).status).toBe(200);

    const list = await client.call<{ items: ChannelView[] }>('/api/channel/?p=1&page_size=100');
    expect(list.body.data!.items.map((channel) => channel.base_url).sort()).toEqual([
      'http://10.0.0.7:8000/v1',
      'http://127.0.0.1:11434',
      'https://api.openai.com',
    ]);
  });

  it('refuses loopback and private hosts too once the operator allows no range, on create and on update', async () => {
    await startWith({ CHANNEL_BASE_URL_ALLOWED_RANGES: 'none' });

    for (const url of [
      'http://127.0.0.1:11434',
      'http://2130706433/',
      'http://localhost:8000',
      'http://192.168.1.5',
    ]) {
      const answer = await create(url);
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
    }
    const created = await create('https://api.openai.com');
    expect(created.status).toBe(200);
    const channel = created.body.data!;

    const moved = await client.call('/api/channel/', {
      method: 'PUT',
      body: { id: channel.id, base_url: 'http://10.0.0.7' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toContain('private address range');
    const read = await client.call<ChannelView>(`/api/channel/${channel.id}`);
    expect(read.body.data!.base_url).toBe('https://api.openai.com');
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
