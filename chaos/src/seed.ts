// The run's world, made through the public API as an operator and customers would: an OpenAI and an
// Anthropic channel on the fake upstream, a promo code, users with a balance, a session and an API key each.
import { randomBytes } from 'node:crypto';
import { CHANNEL_TYPES } from '@tollgate/contracts';
import { CLAUDE_MODEL, DEAR_MODEL, MODEL, type Profile } from './client-profiles';
import { eventually, WebSession } from './web-session';

export const PROMO_CODE = 'CHAOS10';
/** $100 each: far more than a run spends, so a refusal for money never hides a fault's effect. */
export const STARTING_QUOTA = 50_000_000;

export interface Customer {
  name: string;
  userId: number;
  session: WebSession;
  apiKey: string;
  profile: Profile;
  /** The quota it was given: STARTING_QUOTA, or the tight-balance client's small one. */
  quota: number;
}

/** One customer to make: its profile and starting quota. */
export interface CustomerPlan {
  profile: Profile;
  quota: number;
}

export async function seedWorld(options: {
  gatewayUrl: string;
  root: { username: string; password: string };
  upstreamUrl: string;
  upstreamKeys: { openai: string; anthropic: string };
  customers: CustomerPlan[];
  runId: string;
}): Promise<{ root: WebSession; customers: Customer[] }> {
  const root = await eventually('root sign-in', () =>
    WebSession.signIn(options.gatewayUrl, options.root.username, options.root.password),
  );
  await root.call('POST', '/api/channel/', {
    type: 1,
    name: 'chaos fake upstream',
    key: options.upstreamKeys.openai,
    base_url: options.upstreamUrl,
    models: `${MODEL},${DEAR_MODEL}`,
    group: 'default',
    // A fault must not get the only channel banned: that would measure the ban, not the fault.
    auto_ban: 0,
  });
  await root.call('POST', '/api/channel/', {
    type: CHANNEL_TYPES.anthropic,
    name: 'chaos fake anthropic',
    key: options.upstreamKeys.anthropic,
    base_url: options.upstreamUrl,
    models: CLAUDE_MODEL,
    group: 'default',
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
  for (const [index, plan] of options.customers.entries()) {
    const name = `chaos${index + 1}_${options.runId}`.slice(0, 20);
    const password = randomBytes(9).toString('hex');
    const user = await root.call<{ id: number }>('POST', '/api/user/', { username: name, password });
    await root.call('PUT', '/api/user/', { id: user.id, quota: plan.quota });
    const session = await WebSession.signIn(options.gatewayUrl, name, password);
    const token = await session.call<{ id: number }>('POST', '/api/token/', {
      name: 'chaos',
      unlimited_quota: true,
    });
    const { key } = await session.call<{ key: string }>('POST', `/api/token/${token.id}/key`);
    customers.push({
      name,
      userId: user.id,
      session,
      apiKey: key.startsWith('sk-') ? key : `sk-${key}`,
      profile: plan.profile,
      quota: plan.quota,
    });
  }

  // Relay learns keys, users, channels, prices and balances from Kafka: wait until every key is served
  // (and both channels: the Anthropic one through the first customer's key).
  const pings = [
    ...customers.map((customer) => ({ customer, model: MODEL })),
    { customer: customers[0]!, model: CLAUDE_MODEL },
  ];
  for (const { customer, model } of pings) {
    await eventually(`the key of ${customer.name} to be served ${model}`, async () => {
      const res = await fetch(`${options.gatewayUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customer.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 4 }),
        signal: AbortSignal.timeout(30_000),
      });
      if (res.status !== 200) throw new Error(`${res.status} ${(await res.text()).slice(0, 200)}`);
      await res.text();
    });
  }
  return { root, customers };
}
