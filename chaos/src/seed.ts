// The run's world, made through the public API as an operator and customers would: a channel on the
// fake upstream, a promo code, users with a balance, a session and an API key each.
import { randomBytes } from 'node:crypto';
import { eventually, WebSession } from './web-session';

export const MODEL = 'gpt-4o-mini';
export const PROMO_CODE = 'CHAOS10';
/** $100 each: far more than a run spends, so a refusal for money never hides a fault's effect. */
const STARTING_QUOTA = 50_000_000;

export interface Customer {
  name: string;
  userId: number;
  session: WebSession;
  apiKey: string;
}

export async function seedWorld(options: {
  gatewayUrl: string;
  root: { username: string; password: string };
  upstreamUrl: string;
  upstreamKey: string;
  customers: number;
  runId: string;
}): Promise<{ root: WebSession; customers: Customer[] }> {
  const root = await eventually('root sign-in', () =>
    WebSession.signIn(options.gatewayUrl, options.root.username, options.root.password),
  );
  await root.call('POST', '/api/channel/', {
    type: 1,
    name: 'chaos fake upstream',
    key: options.upstreamKey,
    base_url: options.upstreamUrl,
    models: MODEL,
    group: 'default',
    // A fault must not get the only channel banned: that would measure the ban, not the fault.
    auto_ban: 0,
  });
  await root.call('POST', '/api/promo', {
    code: PROMO_CODE,
    type: 'percent',
    value: '10',
    max_uses: 0,
    per_user_limit: 0,
  });

  const customers: Customer[] = [];
  for (let i = 1; i <= options.customers; i++) {
    const name = `chaos${i}_${options.runId}`.slice(0, 20);
    const password = randomBytes(9).toString('hex');
    const user = await root.call<{ id: number }>('POST', '/api/user/', { username: name, password });
    await root.call('PUT', '/api/user/', { id: user.id, quota: STARTING_QUOTA });
    const session = await WebSession.signIn(options.gatewayUrl, name, password);
    const token = await session.call<{ id: number }>('POST', '/api/token/', {
      name: 'chaos',
      unlimited_quota: true,
    });
    const { key } = await session.call<{ key: string }>('POST', `/api/token/${token.id}/key`);
    customers.push({ name, userId: user.id, session, apiKey: key.startsWith('sk-') ? key : `sk-${key}` });
  }

  // Relay learns keys, users, channels, prices and balances from Kafka: wait until every key is served.
  for (const customer of customers) {
    await eventually(`the key of ${customer.name} to be served`, async () => {
      const res = await fetch(`${options.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'ping' }], max_tokens: 4 }),
        signal: AbortSignal.timeout(30_000),
      });
      if (res.status !== 200) throw new Error(`${res.status} ${(await res.text()).slice(0, 200)}`);
      await res.text();
    });
  }
  return { root, customers };
}
