import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INFRASTRUCTURES } from '@tollgate/testing';
import OpenAI from 'openai';
import type { RelayWorld, TestKey } from '../support/relay-world';
import { aChannelOn } from './builders';
import { RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

/** A proxy in front of the fake upstream that keeps the JSON body of every request it passes on. */
async function bodyRecordingProxy(
  target: string,
): Promise<{ url: string; bodies: Record<string, unknown>[]; server: Server }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      if (raw.length > 0) bodies.push(JSON.parse(raw.toString('utf8')) as Record<string, unknown>);
      const answer = await fetch(`${target}${req.url ?? ''}`, {
        method: req.method,
        headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        body: raw.length === 0 ? undefined : raw,
      });
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      res.end(Buffer.from(await answer.arrayBuffer()));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, server };
}

/**
 * A client moved from OpenRouter keeps sending OpenRouter's own fields (through the openai SDK's
 * extra body): they must not reach an upstream, which may refuse the call for them, and
 * `usage: {include: true}` must get it the usage and cost it asked for.
 */
describe.each(INFRASTRUCTURES)("OpenRouter's request fields on %s infrastructure", (kind) => {
  const harness = new RelayHarness(kind, 'relay-openrouter-client');
  let world: RelayWorld;
  let relay: Relay;
  let proxy: Awaited<ReturnType<typeof bodyRecordingProxy>>;
  let gpt: string;
  let key: TestKey;
  let openai: OpenAI;

  beforeAll(async () => {
    await harness.open();
    world = harness.world;
    const upstream = await harness.upstream({ completionTokens: 8, chunks: 2 });
    proxy = await bodyRecordingProxy(upstream.url);
    gpt = world.model('gpt');
    relay = await harness.start();
    await world.price(gpt);
    await world.channel(aChannelOn({ url: proxy.url }, [gpt]));
    key = await harness.readyKey([relay]);
    openai = new OpenAI({ apiKey: key.apiKey, baseURL: `${relay.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await harness.close();
    await new Promise((resolve) => proxy.server.close(resolve));
  });

  it('streams the usage and cost to a client asking usage.include, and sends the upstream none of the routing fields', async () => {
    // OpenRouter's fields, sent as an OpenRouter client sends them.
    const openRouterBody = {
      model: gpt,
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
      usage: { include: true },
      provider: { order: ['openai'], allow_fallbacks: true },
      route: 'fallback',
      transforms: ['middle-out'],
      plugins: [],
    } as OpenAI.ChatCompletionCreateParamsStreaming;
    const stream = await openai.chat.completions.create(openRouterBody);
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const usage = chunks.at(-1)!.usage as
      (OpenAI.CompletionUsage & { cost_quota?: number }) | null | undefined;
    expect(usage?.completion_tokens).toBe(8);
    expect(usage?.cost_quota).toBeGreaterThan(0);

    const sent = proxy.bodies.at(-1)!;
    for (const field of ['usage', 'provider', 'route', 'transforms', 'plugins'])
      expect(sent).not.toHaveProperty(field);
  });

  it('refuses OpenRouter plugins with 400 naming the field, before anything is sent upstream', async () => {
    const sentBefore = proxy.bodies.length;
    const refused = await openai.chat.completions
      .create({
        model: gpt,
        messages: [{ role: 'user', content: 'Hi' }],
        plugins: [{ id: 'web' }],
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed', param: 'plugins' });
    expect(proxy.bodies.length).toBe(sentBefore);
  });
});
