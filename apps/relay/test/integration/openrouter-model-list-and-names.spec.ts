import { INFRASTRUCTURES } from '@tollgate/testing';
import OpenAI from 'openai';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** The fields of OpenRouter's model list, which the openai SDK's types do not have. */
interface OpenRouterModel extends OpenAI.Models.Model {
  name: string;
  context_length: number | null;
  pricing: Record<string, string>;
  top_provider: { context_length: number | null; max_completion_tokens: number | null };
}

/**
 * A client moved from OpenRouter keeps its code: its model picker reads OpenRouter's fields of
 * `/v1/models` (prices per token as decimal text), and it names models as OpenRouter does
 * (`openai/gpt-4o-mini`).
 */
describe.each(INFRASTRUCTURES)('an OpenRouter client’s models on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-openrouter-models', { recordUsage: true });
  let world: RelayWorld;
  let relay: Relay;
  let gpt: string;
  let key: TestKey;
  let openai: OpenAI;

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    const upstream = await harness.upstream({ completionTokens: 8 });
    gpt = world.model('gpt');
    relay = await harness.start();
    // $0.15 and $0.6 per 1M tokens (aModelPrice, provider openai), 20 % off for the group.
    await world.price(gpt, '0.8');
    await world.channel(aChannelOn(upstream, [gpt]));
    key = await harness.readyKey([relay], 50_000_000, {}, { default_currency: 'USD' });
    openai = new OpenAI({ apiKey: key.apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });
  });

  afterAll(() => harness.close());

  it("lists each model with its name, context length and this caller's price per token in its currency", async () => {
    const models: OpenRouterModel[] = [];
    for await (const model of openai.models.list()) models.push(model as OpenRouterModel);
    const model = models.find((m) => m.id === gpt);
    expect(model).toEqual({
      id: gpt,
      object: 'model',
      created: expect.any(Number),
      owned_by: 'openai',
      name: gpt,
      context_length: 128_000,
      pricing: {
        prompt: '0.00000012',
        completion: '0.00000048',
        input_cache_read: '0.00000006',
        currency: 'USD',
      },
      top_provider: { context_length: 128_000, max_completion_tokens: null },
    });
    // A model read by its OpenRouter name is the model.
    expect(await openai.models.retrieve(`openai/${gpt}`)).toEqual(model);
  });

  it("serves `openai/<model>` on the model, logged under its own name, and refuses another provider's prefix", async () => {
    const answer = await openai.chat.completions.create({
      model: `openai/${gpt}`,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 16,
    });
    expect(answer.choices[0]!.message.content).toBeTruthy();
    const [event] = await harness.usageEvents(key.userId);
    expect(event!.model).toBe(gpt);
    await expect(
      openai.chat.completions.create({
        model: `anthropic/${gpt}`,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
