import { randomBytes } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTelemetry, type RunningService, type Telemetry } from '@tollgate/runtime';
import {
  eventually,
  INFRASTRUCTURES,
  openInfrastructure,
  startFakeUpstream,
  waitUntilReady,
  type FakeUpstream,
  type TestInfrastructure,
} from '@tollgate/testing';
import { startRelay } from '../../src';
import { RelayWorld } from '../support/relay-world';

jest.setTimeout(90_000);

const PROMPT = 'my passport number is 4510 774411, keep it secret';

/**
 * Relay in a process whose telemetry exports spans (to memory here, to a collector in production):
 * a served call leaves a gen_ai CLIENT span under the request's server span, without any text.
 */
describe.each(INFRASTRUCTURES)('relay gen_ai spans on %s infrastructure', (kind) => {
  const secret = randomBytes(32).toString('hex');
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let infra: TestInfrastructure;
  let upstream: FakeUpstream;
  let relay: RunningService;
  let world: RelayWorld;

  beforeAll(async () => {
    telemetry = startTelemetry({ serviceName: 'relay-tracing-it', spanExporter: exporter });
    infra = await openInfrastructure(kind, 'relay-tracing', { database: false });
    world = new RelayWorld(infra.runtime.bus, infra.runId);
    upstream = await startFakeUpstream({ completionTokens: 8, chunks: 4 });
    relay = await startRelay(
      {
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'error',
        TOLLGATE_INTERNAL_TOKEN_SECRET: secret,
        TOLLGATE_ENCRYPTION_KEY: world.encryptionKey,
        RELAY_QUOTA_HOLD_MS: '60000',
      },
      infra.runtime,
    );
  });

  afterAll(async () => {
    await relay?.close();
    await upstream?.close();
    await infra?.close();
    await telemetry?.shutdown();
  });

  it('records the upstream call with gen_ai attributes, child of the request span, and no prompt or answer', async () => {
    const model = world.model('traced');
    await world.price(model);
    await world.channel({
      key: 'sk-fake-openai-key',
      base_url: upstream.url,
      models: [model],
      model_mapping: { [model]: 'gpt-4o-mini' },
    });
    const key = await world.key(50_000_000);
    await waitUntilReady(relay.url);
    const call = () =>
      fetch(`${relay.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key.apiKey}` },
        body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
      });
    // The key, price and channel reach relay through the topics, in no set order.
    const answer = await eventually('relay to serve the traced model', async () => {
      const res = await call();
      return res.status === 200 ? res.text() : undefined;
    });
    expect(answer).toContain('data: ');

    const [client, server] = await eventually('the exported upstream span and its request span', async () => {
      const spans = exporter.getFinishedSpans();
      const upstreamSpan = spans.find((s) => s.kind === SpanKind.CLIENT && s.name === 'chat gpt-4o-mini');
      const parent = spans.find((s) => s.spanContext().spanId === upstreamSpan?.parentSpanContext?.spanId);
      return upstreamSpan && parent ? ([upstreamSpan, parent] as [ReadableSpan, ReadableSpan]) : undefined;
    });

    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.name).toBe('POST /v1/chat/completions');
    expect(client.spanContext().traceId).toBe(server.spanContext().traceId);
    expect(client.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.output_tokens': 8,
      'server.address': new URL(upstream.url).hostname,
      'tollgate.model': model,
      'tollgate.stream': true,
      'tollgate.call.status': 'success',
    });
    expect(client.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);

    const answerText = answer
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => (JSON.parse(line.slice(6)) as { choices: { delta: { content?: string } }[] }).choices)
      .flatMap((choices) => choices.map((c) => c.delta.content ?? ''))
      .join('');
    expect(answerText.length).toBeGreaterThan(0);
    const exported = JSON.stringify(
      exporter.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })),
    );
    for (const text of [PROMPT, '4510 774411', answerText, key.apiKey, 'sk-fake-openai-key'])
      expect(exported).not.toContain(text);
  });
});
