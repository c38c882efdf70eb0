import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { RedisKvStore } from '../../src';
import { describeKvStoreContract } from '../contract/kv-store.contract';

const redisUrl = process.env['REDIS_URL'];
if (!redisUrl) {
  throw new Error(
    'REDIS_URL is not set: start Redis with `bash scripts/infra.sh up redis` and load `eval "$(bash scripts/infra.sh env)"`',
  );
}

// One prefix per run, so parallel or leftover runs never see each other's keys.
const keyPrefix = `test:kv:${randomUUID()}:`;

describeKvStoreContract('RedisKvStore', () => new RedisKvStore(redisUrl, { keyPrefix }));

describe('RedisKvStore on a shared client', () => {
  let client: Redis;

  beforeAll(() => {
    client = new Redis(redisUrl);
  });

  afterAll(async () => {
    const keys = await client.keys(`${keyPrefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });

  it('puts every key under its prefix, including the quota keys of an account', async () => {
    const store = new RedisKvStore(client, { keyPrefix });
    await store.set('prefixed', 'v', 10_000);
    await store.reserve('acct-prefix', 'req', 5, 100, 10_000);
    await expect(client.get(`${keyPrefix}prefixed`)).resolves.toBe('v');
    await expect(client.zscore(`${keyPrefix}quota:{acct-prefix}:expiry`, 'req')).resolves.not.toBeNull();
  });

  it('gives an account its keys with the expiry of its latest entry, and drops them when it is empty', async () => {
    const store = new RedisKvStore(client, { keyPrefix });
    const account = `acct-${randomUUID()}`;
    const keys = ['expiry', 'amount', 'total'].map((part) => `${keyPrefix}quota:{${account}}:${part}`);
    await store.reserve(account, 'short', 5, 100, 1_000);
    await store.reserve(account, 'long', 5, 100, 5_000);
    for (const key of keys) {
      const remaining = await client.pttl(key);
      expect(remaining).toBeGreaterThan(4_000);
      expect(remaining).toBeLessThanOrEqual(5_000);
    }
    await store.release(account, 'short');
    await store.release(account, 'long');
    await expect(client.exists(...keys)).resolves.toBe(0);
  });

  it('leaves a client it was given open when closed', async () => {
    const store = new RedisKvStore(client, { keyPrefix });
    await store.close();
    await expect(client.ping()).resolves.toBe('PONG');
  });

  it('keeps exact integers above the precision of Lua number formatting', async () => {
    const store = new RedisKvStore(client, { keyPrefix });
    const account = `acct-${randomUUID()}`;
    const large = 123_456_789_012_345;
    await expect(store.reserve(account, 'big', large, large + 1, 10_000)).resolves.toEqual({
      ok: true,
      outstanding: large,
    });
    await expect(store.settle(account, 'big', large - 1, 10_000)).resolves.toBe(true);
    await expect(store.outstanding(account)).resolves.toBe(large - 1);
  });
});

describe('RedisKvStore when its Redis is away', () => {
  it('reports the outage once, not at every reconnect attempt, and serves again once Redis is back', async () => {
    // Resets the first three connections (Redis away), then forwards to the real Redis.
    const redis = new URL(redisUrl);
    let attempts = 0;
    const server = createServer((socket) => {
      attempts += 1;
      if (attempts <= 3) return socket.resetAndDestroy();
      const upstream = connect(Number(redis.port), redis.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const reported: Error[] = [];
    const store = new RedisKvStore(`redis://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      keyPrefix,
      onConnectionError: (error) => reported.push(error),
    });
    try {
      await store.set('after-outage', 'served');

      expect(await store.get('after-outage')).toBe('served');
      expect(attempts).toBeGreaterThan(3);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatchObject({ code: 'ECONNRESET' });
    } finally {
      await store.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
