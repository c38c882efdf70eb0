import {
  Role,
  TOPICS,
  USER_GROUPS,
  type CatalogChannelModels,
  type PricingResponse,
} from '@tollgate/contracts';
import { INTERNAL_IDENTITY_HEADER, signInternalToken } from '@tollgate/platform';
import { eventually, INFRASTRUCTURES, randomUserId } from '@tollgate/testing';
import { BillingHarness, Caller, type Billing } from './billing-harness';

jest.setTimeout(60_000);

/** A channel as admin publishes it on catalog.channel-models. */
const aServingChannel = (
  id: number,
  groups: string[],
  models: string[],
  enabled = true,
): CatalogChannelModels => ({
  v: 1,
  id,
  enabled,
  groups,
  models,
  updated_at: Math.floor(Date.now() / 1000),
});

const NAMED_GROUP_RATIOS = { default: 1, default_prev: 1, vip: 0.9, svip: 0.8, enterprise: 0.75 };

/**
 * Channels: 1 default (gpt-4o, gpt-4o-mini), 2 acme's (acme-gpt), 3 globex's (globex-gpt), 4 default
 * but disabled (claude-sonnet-4-5), 5 default serving a model nobody priced. acme and globex have
 * ratios of their own.
 */
describe.each(INFRASTRUCTURES)('the price list on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-price-visibility-it', {
    topics: [TOPICS.catalogChannelModels],
  });
  let billing: Billing;

  const publishChannels = (channels: readonly (CatalogChannelModels | { id: number; value: null })[]) =>
    harness.bus.publish(
      channels.map((channel) => ({
        topic: TOPICS.catalogChannelModels.name,
        key: String(channel.id),
        value: 'value' in channel ? null : channel,
      })),
    );

  /** A signed-in caller as the gateway vouches for them on a public route: role and group. */
  const signedIn = (role: Role, group?: string) =>
    new Caller(billing.url, async () => ({
      [INTERNAL_IDENTITY_HEADER]: await signInternalToken(
        { userId: randomUserId(), role, ...(group ? { group } : {}), via: 'session' },
        harness.secret,
      ),
    }));

  const priceList = async (caller: Caller) => {
    const answer = await caller.get<PricingResponse>('/api/pricing');
    expect(answer.status).toBe(200);
    return {
      models: answer.body.data.map((row) => row.model).sort(),
      group_ratio: answer.body.group_ratio,
    };
  };

  const aPrice = (provider: string) => ({
    provider,
    input_price: '1',
    output_price: '2',
    cached_input_price: '0.5',
    context_window: 128_000,
    intelligence: 3,
    speed: 3,
    sota: false,
    deprecated: false,
  });

  beforeAll(async () => {
    await harness.open();
    await publishChannels([
      aServingChannel(1, ['default'], ['gpt-4o', 'gpt-4o-mini']),
      aServingChannel(2, ['acme'], ['acme-gpt']),
      aServingChannel(3, ['globex', 'vip'], ['globex-gpt']),
      aServingChannel(4, ['default'], ['claude-sonnet-4-5'], false),
      aServingChannel(5, ['default'], ['never-priced']),
    ]);
    billing = await harness.start();
    const admin = billing.asAdmin();
    for (const [model, provider] of [
      ['acme-gpt', 'acme'],
      ['globex-gpt', 'globex'],
    ]) {
      expect((await admin.put(`/api/pricing/models/${model}`, aPrice(provider!))).status).toBe(200);
    }
    expect((await admin.put('/api/pricing/groups/acme', { ratio: '0.8' })).status).toBe(200);
    expect((await admin.put('/api/pricing/groups/globex', { ratio: '0.7' })).status).toBe(200);
  });
  afterAll(() => harness.close());

  it("shows anonymous callers only the default group's enabled channels' models and only the named groups' ratios", async () => {
    expect(await priceList(billing.anonymous())).toEqual({
      models: ['gpt-4o', 'gpt-4o-mini'],
      group_ratio: NAMED_GROUP_RATIOS,
    });
  });

  it("shows a user of acme what relay serves acme: its private model and ratio, never globex's", async () => {
    expect(await priceList(signedIn(Role.User, 'acme'))).toEqual({
      models: ['acme-gpt'],
      group_ratio: { ...NAMED_GROUP_RATIOS, acme: 0.8 },
    });
    // Relay serves a group only from channels that list it: a named group's user sees that group's
    // channels, not default's (they would answer 404); a token without a group, the default list.
    expect((await priceList(signedIn(Role.User, 'vip'))).models).toEqual(['globex-gpt']);
    expect(await priceList(signedIn(Role.User))).toEqual(await priceList(billing.anonymous()));
    // Each caller's own answer: a shared cache between the visitor and billing must not keep it.
    const answer = await signedIn(Role.User, 'acme').fetch('/api/pricing');
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    await answer.body?.cancel();
  });

  it('shows an admin and root every priced model and every ratio, for the price editor', async () => {
    for (const role of [Role.Admin, Role.Root]) {
      const { models, group_ratio } = await priceList(signedIn(role, 'default'));
      expect(models).toEqual(
        expect.arrayContaining(['acme-gpt', 'claude-sonnet-4-5', 'globex-gpt', 'gpt-4o', 'o3']),
      );
      expect(group_ratio).toEqual({ ...NAMED_GROUP_RATIOS, acme: 0.8, globex: 0.7 });
    }
    expect(Object.keys(NAMED_GROUP_RATIOS).sort()).toEqual([...USER_GROUPS].sort());
  });

  it('follows channel changes as admin publishes them: enabled, disabled, moved and deleted', async () => {
    await publishChannels([
      aServingChannel(4, ['default'], ['claude-sonnet-4-5']),
      aServingChannel(1, ['default'], ['gpt-4o', 'gpt-4o-mini'], false),
      aServingChannel(3, ['acme'], ['globex-gpt']),
      { id: 2, value: null },
    ]);
    await eventually('the changes in the anonymous price list', async () => {
      const { models } = await priceList(billing.anonymous());
      return models.join() === 'claude-sonnet-4-5' ? models : undefined;
    });
    expect((await priceList(signedIn(Role.User, 'acme'))).models).toEqual(['globex-gpt']);
    expect((await priceList(signedIn(Role.User, 'vip'))).models).toEqual([]);
  });

  it('answers from the topic a new billing reads at start-up, without admin', async () => {
    const again = await harness.start();
    try {
      const answer = await again.anonymous().get<PricingResponse>('/api/pricing');
      expect(answer.body.data.map((row) => row.model)).toEqual(['claude-sonnet-4-5']);
    } finally {
      await again.close();
    }
  });
});
