import { randomBytes } from 'node:crypto';
import { ChannelStatus, TOPICS, type CatalogChannelModels, type ChannelView } from '@tollgate/contracts';
import { startAdmin } from '../../src';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  TopicRecorder,
  waitUntilReady,
  type TestInfrastructureWithDatabase,
} from '@tollgate/testing';
import type { TestDatabase } from '@tollgate/persistence';
import { AdminClient, adminEnv } from './admin-client';

jest.setTimeout(90_000);

/**
 * catalog.channel-models: what billing's price list learns of each channel (what it serves, for
 * whom, whether enabled), published with every change and again at each start, never a key.
 */
describe.each(INFRASTRUCTURES)('catalog.channel-models on %s infrastructure', (kind) => {
  let infra: TestInfrastructureWithDatabase;
  let recorder: TopicRecorder;
  const secret = randomBytes(32).toString('hex');
  const masterKey = randomBytes(32);

  /** Admin on `database` while `whileRunning` acts (PGlite serves one connection at a time). */
  const withAdmin = async (database: TestDatabase, whileRunning: (client: AdminClient) => Promise<void>) => {
    const admin = await startAdmin(
      adminEnv(database.url, secret, masterKey, {
        RELAY_URL: 'http://127.0.0.1:9',
        CHANNEL_USAGE_CONSUMER_GROUP: `admin.channel-usage.${infra.runId}`,
      }),
      infra.runtime,
    );
    try {
      await waitUntilReady(admin.url);
      await whileRunning(new AdminClient(admin.url, secret));
    } finally {
      await admin.close();
    }
  };

  /** Every record of channel `id` on the topic, values or tombstones, in order. */
  const recordsOf = (id: number) =>
    recorder.records
      .filter((record) => record.key === String(id))
      .map((record) => record.value as CatalogChannelModels | null);

  beforeAll(async () => {
    infra = await openInfrastructure(kind, 'admin-channel-models-it');
    await infra.runtime.bus.ensureTopics([TOPICS.catalogChannel, TOPICS.catalogChannelModels]);
    recorder = await TopicRecorder.start(
      infra.runtime.bus,
      TOPICS.catalogChannelModels.name,
      `admin-channel-models.${infra.runId}`,
    );
  });
  afterAll(async () => {
    await recorder?.stop();
    await infra?.close();
  });

  it('publishes what a channel serves and for whom with each change, a tombstone when deleted, and never its key', async () => {
    const database = await infra.createDatabase();
    let id = 0;
    let deleted = 0;
    await withAdmin(database, async (client) => {
      const created = await client.call<ChannelView>('/api/channel/', {
        method: 'POST',
        body: {
          type: 1,
          name: 'private to acme',
          key: `sk-${randomBytes(16).toString('hex')}`,
          models: 'acme-gpt,gpt-4o',
          model_mapping: '{"acme-alias":"gpt-4o-mini"}',
          group: 'acme',
        },
      });
      expect(created.status).toBe(200);
      id = created.body.data!.id;
      await eventually('the new channel', async () => recordsOf(id).at(-1) ?? undefined);
      expect(
        (
          await client.call('/api/channel/', {
            method: 'PUT',
            body: { id, status: ChannelStatus.ManuallyDisabled },
          })
        ).status,
      ).toBe(200);
      expect(
        (await client.call('/api/channel/', { method: 'PUT', body: { id, group: 'acme,vip', status: 1 } }))
          .status,
      ).toBe(200);

      const other = await client.call<ChannelView>('/api/channel/', {
        method: 'POST',
        body: {
          type: 1,
          name: 'gone',
          key: `sk-${randomBytes(16).toString('hex')}`,
          models: 'x',
          group: 'default',
        },
      });
      expect(other.status).toBe(200);
      deleted = other.body.data!.id;
      expect((await client.call(`/api/channel/${deleted}`, { method: 'DELETE' })).status).toBe(200);
      await eventually('the tombstone', async () => (recordsOf(deleted).includes(null) ? true : undefined));
      await eventually('the last change', async () => (recordsOf(id).length >= 3 ? true : undefined));
    });

    const slim = (enabled: boolean, groups: string[]) => ({
      v: 1,
      id,
      enabled,
      groups,
      models: ['acme-gpt', 'gpt-4o', 'acme-alias'],
      updated_at: expect.any(Number),
    });
    expect(recordsOf(id)).toEqual([slim(true, ['acme']), slim(false, ['acme']), slim(true, ['acme', 'vip'])]);
    expect(recordsOf(deleted)).toEqual([expect.objectContaining({ id: deleted, groups: ['default'] }), null]);

    // A start finds the channels already there and publishes them again (an upgraded system's too).
    await withAdmin(database, async () => {
      await eventually('the channel published again at start-up', async () =>
        recordsOf(id).length >= 4 ? true : undefined,
      );
    });
    expect(recordsOf(id).at(-1)).toEqual(slim(true, ['acme', 'vip']));
    expect(recordsOf(deleted).at(-1)).toBeNull();
  });
});
