import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import { TokenStatus, type AdminUserView, type TokenKey, type TokenView } from '@tollgate/contracts';
import { eventually, seedModelThroughAdmin, startFakeUpstream, type FakeUpstream } from '@tollgate/testing';
import { Browser } from '../support/accounts-browser';
import type { AccountsPlatform } from '../support/accounts-platform';

const PASSWORD = 'correct-horse-9';
const QUOTA = 50_000_000;
const REVOCATION_DEADLINE_MS = 1_000;

/**
 * API keys made through /api/token/ reach relay over identity.token, and a disabled or deleted key
 * stops working at relay within a second. The whole platform runs as separate processes on real
 * PostgreSQL, Redis and Kafka; root sets up a price, a channel to a fake upstream and the user's
 * balance through the gateway, and the user calls /v1 with the official openai client. The model and
 * the channel are this scenario's own, so nothing else on the shared platform (or broker) serves it.
 */
export function apiKeys(platform: () => AccountsPlatform): void {
  describe('accounts through the gateway: API keys reaching relay', () => {
    let upstream: FakeUpstream;
    let root: Browser;
    let user: Browser;
    let model: string;

    beforeAll(async () => {
      upstream = await startFakeUpstream({ completionTokens: 4, chunks: 2 });
      const tollgate = platform();
      // A model of this run only, so no other run's channel on the shared broker can serve it.
      model = `acc-${tollgate.runId}`;
      root = await tollgate.signedInRoot();
      await seedModelThroughAdmin((path, method, body) => root.call(path, { method, body }), {
        model,
        upstreamUrl: upstream.url,
        channelName: `e2e accounts ${tollgate.runId}`,
      });

      user = await aFundedUser();
    });
    afterAll(async () => {
      await upstream?.close();
    });

    /** A user root creates and funds, signed in in their own browser. */
    async function aFundedUser(): Promise<Browser> {
      const username = `u${randomBytes(5).toString('hex')}`;
      const created = await root.call('/api/user/', { body: { username, password: PASSWORD } });
      expect(created.status).toBe(200);
      const userId = (created.body.data as AdminUserView).id;
      const funded = await root.call('/api/user/', { method: 'PUT', body: { id: userId, quota: QUOTA } });
      expect(funded.status).toBe(200);
      const browser = new Browser(platform().url);
      expect((await browser.signIn(username, PASSWORD)).status).toBe(200);
      return browser;
    }

    /** A key made on the keys page, and its full text as "copy key" gives it. */
    async function newKey(owner: Browser = user): Promise<{ id: number; apiKey: string }> {
      const created = await owner.call('/api/token/', {
        body: { name: `key ${randomBytes(3).toString('hex')}`, unlimited_quota: true },
      });
      expect(created.status).toBe(200);
      const { id, key: masked } = created.body.data as TokenView;
      const copied = await owner.call(`/api/token/${id}/key`, { method: 'POST' });
      expect(copied.status).toBe(200);
      const { key: apiKey } = copied.body.data as TokenKey;
      expect(apiKey).toMatch(/^sk-[A-Za-z0-9]{48}$/);
      expect(masked).not.toBe(apiKey);
      return { id, apiKey };
    }

    /** One chat completion with the official client; its HTTP status (200 when answered). */
    async function chatStatus(apiKey: string): Promise<number> {
      const client = new OpenAI({ apiKey, baseURL: `${platform().url}/v1`, maxRetries: 0 });
      try {
        const answer = await client.chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'Hello' }],
          max_tokens: 8,
        });
        expect(answer.choices[0]?.message.content).toBeTruthy();
        return 200;
      } catch (error) {
        if (error instanceof OpenAI.APIError && error.status !== undefined) return error.status;
        throw error;
      }
    }

    /** Time from `change` answering until relay refuses the key with 401. */
    async function msUntilRefused(apiKey: string, change: () => Promise<void>): Promise<number> {
      await change();
      const changedAt = Date.now();
      await eventually(
        'relay to refuse the key',
        async () => ((await chatStatus(apiKey)) === 401 ? true : undefined),
        10_000,
      );
      return Date.now() - changedAt;
    }

    it('serves a new key, and refuses it within a second of being disabled', async () => {
      const key = await newKey();
      // Relay learns the key, its owner, the balance, the channel and the price from their topics.
      await eventually(
        'relay to serve the new key',
        async () => ((await chatStatus(key.apiKey)) === 200 ? true : undefined),
        45_000,
      );

      const elapsed = await msUntilRefused(key.apiKey, async () => {
        const disabled = await user.call('/api/token/', {
          method: 'PUT',
          body: { id: key.id, status: TokenStatus.Disabled },
        });
        expect(disabled.status).toBe(200);
        expect(disabled.body.data).toMatchObject({ id: key.id, status: TokenStatus.Disabled });
      });

      expect(elapsed).toBeLessThan(REVOCATION_DEADLINE_MS);
      // The channel served the key's calls; a refused call never reaches it.
      const served = upstream.stats().byRoute['openai.chat.completions'] ?? 0;
      expect(served).toBeGreaterThan(0);
      expect(await chatStatus(key.apiKey)).toBe(401);
      expect(upstream.stats().byRoute['openai.chat.completions']).toBe(served);
    });

    it('refuses a deleted key within a second', async () => {
      const key = await newKey();
      await eventually(
        'relay to serve the new key',
        async () => ((await chatStatus(key.apiKey)) === 200 ? true : undefined),
        20_000,
      );

      const elapsed = await msUntilRefused(key.apiKey, async () => {
        const deleted = await user.call(`/api/token/${key.id}`, { method: 'DELETE' });
        expect(deleted).toMatchObject({ status: 200, body: { success: true } });
      });

      expect(elapsed).toBeLessThan(REVOCATION_DEADLINE_MS);
      expect((await user.call(`/api/token/${key.id}`)).status).toBe(404);
    });

    it('refuses the keys of an account its owner deleted within a second', async () => {
      const owner = await aFundedUser();
      const key = await newKey(owner);
      await eventually(
        'relay to serve the new key',
        async () => ((await chatStatus(key.apiKey)) === 200 ? true : undefined),
        20_000,
      );

      const elapsed = await msUntilRefused(key.apiKey, async () => {
        const deleted = await owner.call('/api/user/self', { method: 'DELETE' });
        expect(deleted).toMatchObject({ status: 200, body: { success: true } });
      });

      expect(elapsed).toBeLessThan(REVOCATION_DEADLINE_MS);
    });
  });
}
