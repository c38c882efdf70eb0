import {
  priceKey,
  pricingResponseSchema,
  TOPICS,
  type BillingPrice,
  type CatalogChannelModels,
  type PricingResponse,
} from '@tollgate/contracts';
import type { TestDatabase } from '@tollgate/persistence';
import {
  aPriceWithCacheWrites,
  eventually,
  INFRASTRUCTURES,
  randomUserId,
  withDatabase,
} from '@tollgate/testing';
import { SEED_GROUP_RATIOS, SEED_MODEL_PRICES } from '../../src/migrations/20261123-prices.seed';
import { BillingHarness, type Answer } from './billing-harness';

jest.setTimeout(60_000);

const REQUIRED_MODELS = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-4.1',
  'gpt-4o',
  'gpt-4o-mini',
  'o3',
  'o4-mini',
  'text-embedding-3-small',
  'claude-opus-4-1',
  'claude-sonnet-4-5',
  'claude-haiku-4-5',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'deepseek-chat',
  'deepseek-reasoner',
  'glm-4.6',
];

const SEEDED_KEYS = [
  ...SEED_MODEL_PRICES.map((price) => priceKey.model(price.model)),
  ...Object.keys(SEED_GROUP_RATIOS).map(priceKey.group),
];

describe.each(INFRASTRUCTURES)('billing prices on %s infrastructure', (kind) => {
  const harness = new BillingHarness(kind, 'billing-prices-it', {
    topics: [TOPICS.catalogChannelModels],
    record: [TOPICS.billingPrice],
  });

  const outboxCountsByKey = (database: TestDatabase) =>
    withDatabase(database, async (query) => {
      const rows = await query<{ key: string; count: string }>(
        'select key, count(*) as count from outbox_messages where topic = ? group by key',
        [TOPICS.billingPrice.name],
      );
      return Object.fromEntries(rows.map((row) => [row.key, Number(row.count)]));
    });

  const publishedPrices = (key: string) =>
    harness
      .recorder(TOPICS.billingPrice)
      .records.filter((record) => record.key === key)
      .map((record) => record.value as BillingPrice);

  const aModelPrice = (overrides: Record<string, unknown> = {}) => ({
    provider: 'openai',
    input_price: '2.75',
    output_price: 11,
    cached_input_price: '1.375000',
    context_window: 128_000,
    intelligence: 3,
    speed: 4,
    sota: false,
    deprecated: true,
    ...overrides,
  });

  beforeAll(async () => {
    await harness.open();
    // The public list shows the models a default-group channel serves (pricing-visibility.spec has the rest).
    const servingEverySeededModel: CatalogChannelModels = {
      v: 1,
      id: 1,
      enabled: true,
      groups: ['default'],
      models: SEED_MODEL_PRICES.map((price) => price.model),
      updated_at: Math.floor(Date.now() / 1000),
    };
    await harness.bus.publish([
      { topic: TOPICS.catalogChannelModels.name, key: '1', value: servingEverySeededModel },
    ]);
  });
  afterAll(() => harness.close());

  it('answers the seeded catalogue publicly and publishes each seeded entry exactly once across restarts', async () => {
    const database = await harness.createDatabase();
    let answer: Answer<PricingResponse> | undefined;
    await harness.run(database, async (billing) => {
      answer = await billing.anonymous().get<PricingResponse>('/api/pricing');
      await eventually('every seeded entry on billing.price', async () =>
        SEEDED_KEYS.every((key) => publishedPrices(key).length > 0) ? true : undefined,
      );
    });
    await harness.run(database, async () => undefined);

    expect(answer!.status).toBe(200);
    const body = pricingResponseSchema.parse(answer!.body);
    expect(body.data.map((row) => row.model)).toEqual(expect.arrayContaining(REQUIRED_MODELS));
    expect(body.data.find((row) => row.model === 'gpt-4o')).toEqual({
      model: 'gpt-4o',
      context_window: 128_000,
      provider: 'openai',
      input_price: 2.5,
      output_price: 10,
      cached_input_price: 1.25,
      cache_write_price: null,
      cache_write_1h_price: null,
      intelligence: 3,
      speed: 4,
      sota: false,
      deprecated: false,
    });
    // Anthropic's cache-write prices on the seeded Claude models: 1.25× and 2× the input price.
    expect(body.data.find((row) => row.model === 'claude-opus-4-5')).toMatchObject({
      input_price: 5,
      cache_write_price: 6.25,
      cache_write_1h_price: 10,
    });
    expect(body.group_ratio).toEqual({ default: 1, default_prev: 1, vip: 0.9, svip: 0.8, enterprise: 0.75 });
    expect(publishedPrices(priceKey.model('claude-sonnet-4-5'))[0]).toEqual({
      ...aPriceWithCacheWrites(),
      updated_at: expect.any(Number),
    });
    expect(publishedPrices(priceKey.model('gpt-4o'))[0]).not.toHaveProperty('cache_write_price');
    expect(publishedPrices(priceKey.group('enterprise'))[0]).toMatchObject({
      kind: 'group_ratio',
      ratio: '0.75',
    });
    // The restart found nothing unpublished: one outbox row per seeded entry, no more (the exchange
    // rate, on the same topic, is published at each start-up).
    const { [priceKey.rate('USD_RUB')]: rates, ...entries } = await outboxCountsByKey(database);
    expect(entries).toEqual(Object.fromEntries(SEEDED_KEYS.map((key) => [key, 1])));
    expect(rates).toBeGreaterThan(0);
  });

  it('lets an admin edit a price and a group ratio, answering and publishing the new values', async () => {
    const database = await harness.createDatabase();
    const newModel = `it-model-${harness.infra.runId}`.toLowerCase();
    const group = `it-group-${harness.infra.runId}`.toLowerCase();
    let after: Answer<PricingResponse> | undefined;
    await harness.run(database, async (billing) => {
      const admin = billing.asAdmin();
      const edited = await admin.put('/api/pricing/models/gpt-4o', aModelPrice());
      expect(edited).toEqual({
        status: 200,
        body: expect.objectContaining({
          success: true,
          data: expect.objectContaining({ input_price: 2.75 }),
        }),
      });
      expect(
        (await admin.put(`/api/pricing/models/${newModel}`, aModelPrice({ provider: 'acme' }))).status,
      ).toBe(200);
      expect((await admin.put('/api/pricing/groups/vip', { ratio: '1.25' })).status).toBe(200);
      expect((await admin.put(`/api/pricing/groups/${group}`, { ratio: 0.5 })).status).toBe(200);
      after = await admin.get<PricingResponse>('/api/pricing');
      await eventually('the edits on billing.price', async () =>
        publishedPrices(priceKey.group(group)).length > 0 &&
        publishedPrices(priceKey.model(newModel)).length > 0
          ? true
          : undefined,
      );
    });

    expect(after!.body.data.find((row) => row.model === 'gpt-4o')).toMatchObject({
      input_price: 2.75,
      output_price: 11,
      cached_input_price: 1.375,
      deprecated: true,
    });
    expect(after!.body.data.find((row) => row.model === newModel)).toMatchObject({ provider: 'acme' });
    expect(after!.body.group_ratio).toMatchObject({ vip: 1.25, [group]: 0.5 });
    expect(publishedPrices(priceKey.model(newModel))).toEqual([
      {
        v: 1,
        kind: 'model',
        model: newModel,
        provider: 'acme',
        input_price: '2.75',
        output_price: '11',
        cached_input_price: '1.375',
        context_window: 128_000,
        updated_at: expect.any(Number),
      },
    ]);
    expect(publishedPrices(priceKey.group(group))).toEqual([
      { v: 1, kind: 'group_ratio', group, ratio: '0.5', updated_at: expect.any(Number) },
    ]);
    const counts = await outboxCountsByKey(database);
    expect(counts[priceKey.model('gpt-4o')]).toBe(2); // seeded, then edited
    expect(counts[priceKey.group('vip')]).toBe(2);
    const vipEvents = await withDatabase(database, (query) =>
      query<{ value: unknown }>('select value from outbox_messages where topic = ? and key = ? order by id', [
        TOPICS.billingPrice.name,
        priceKey.group('vip'),
      ]),
    );
    expect(vipEvents.map((row) => row.value)).toEqual([
      expect.objectContaining({ ratio: '0.9' }),
      expect.objectContaining({ ratio: '1.25' }),
    ]);
  });

  it("lets an admin set and clear a model's cache-write prices, answering and publishing them exactly", async () => {
    const database = await harness.createDatabase();
    const model = `it-claude-${harness.infra.runId}`.toLowerCase();
    const answers: Answer<{ data: unknown }>[] = [];
    await harness.run(database, async (billing) => {
      const admin = billing.asAdmin();
      const claude = aModelPrice({ provider: 'anthropic', input_price: '3', cached_input_price: '0.3' });
      answers.push(
        await admin.put(`/api/pricing/models/${model}`, {
          ...claude,
          cache_write_price: '3.750000',
          cache_write_1h_price: 6,
        }),
      );
      answers.push(await admin.put(`/api/pricing/models/${model}`, { ...claude, cache_write_price: '-1' }));
      answers.push(await admin.put(`/api/pricing/models/${model}`, { ...claude, cache_write_price: null }));
      await eventually('both edits on billing.price', async () =>
        publishedPrices(priceKey.model(model)).length === 2 ? true : undefined,
      );
    });

    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 200]);
    expect(answers[0]!.body.data).toMatchObject({ cache_write_price: 3.75, cache_write_1h_price: 6 });
    expect(answers[2]!.body.data).toMatchObject({ cache_write_price: null, cache_write_1h_price: null });
    const [set, cleared] = publishedPrices(priceKey.model(model));
    expect(set).toMatchObject({ input_price: '3', cache_write_price: '3.75', cache_write_1h_price: '6' });
    expect(cleared).not.toHaveProperty('cache_write_price');
    expect(cleared).not.toHaveProperty('cache_write_1h_price');
  });

  it('refuses edits from non-admins (403), anonymous callers (401) and bad input (400), changing nothing', async () => {
    const database = await harness.createDatabase();
    const answers: Record<string, Answer> = {};
    let after: Answer<PricingResponse> | undefined;
    await harness.run(database, async (billing) => {
      const admin = billing.asAdmin();
      const gpt4o = '/api/pricing/models/gpt-4o';
      answers['user'] = await billing.asUser(randomUserId()).put(gpt4o, aModelPrice());
      answers['anonymous'] = await billing.anonymous().put(gpt4o, aModelPrice());
      answers['negative price'] = await admin.put(gpt4o, aModelPrice({ input_price: '-1' }));
      answers['too precise'] = await admin.put(gpt4o, aModelPrice({ output_price: '0.0000001' }));
      answers['missing field'] = await admin.put(gpt4o, { provider: 'openai' });
      answers['bad ratio'] = await admin.put('/api/pricing/groups/vip', { ratio: 'cheap' });
      answers['bad group name'] = await admin.put('/api/pricing/groups/no%20spaces', { ratio: '1' });
      answers['not an object'] = await admin.put(gpt4o, 'gpt-4o');
      after = await billing.anonymous().get<PricingResponse>('/api/pricing');
    });

    const statuses = Object.fromEntries(
      Object.entries(answers).map(([name, answer]) => [name, answer.status]),
    );
    expect(statuses).toEqual({
      user: 403,
      anonymous: 401,
      'negative price': 400,
      'too precise': 400,
      'missing field': 400,
      'bad ratio': 400,
      'bad group name': 400,
      'not an object': 400,
    });
    for (const answer of Object.values(answers)) {
      expect(answer.body).toEqual({ success: false, message: expect.any(String) });
    }
    expect(answers['negative price'].body).toMatchObject({ message: expect.stringContaining('input_price') });
    expect(after!.body.data.find((row) => row.model === 'gpt-4o')).toMatchObject({ input_price: 2.5 });
    expect(after!.body.group_ratio['vip']).toBe(0.9);
  });
});
