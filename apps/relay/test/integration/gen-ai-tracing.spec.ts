import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTelemetry, type Telemetry } from '@tollgate/runtime';
import { eventually, INFRASTRUCTURES, type FakeUpstream } from '@tollgate/testing';
import { aChannelOn } from './builders';
import { bearer, RelayHarness, type Relay } from './relay-harness';

jest.setTimeout(90_000);

const PROMPT = 'my passport number is 4510 774411, keep it secret';

/**
 * Relay in a process whose telemetry exports spans (to memory here, to a collector in production):
 * a served call leaves a gen_ai CLIENT span under the request's server span, without any text.
 */
describe.each(INFRASTRUCTURES)('relay gen_ai spans on %s infrastructure', (kind) => {
  const harness = new RelayHarness(kind, 'relay-tracing', { env: { RELAY_QUOTA_HOLD_MS: '60000' } });
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  let upstream: FakeUpstream;
  let relay: Relay;

  beforeAll(async () => {
    telemetry = await startTelemetry({ serviceName: 'relay-tracing-it', spanExporter: exporter });
    await harness.open();
    upstream = await harness.upstream({ completionTokens: 8, chunks: 4 });
    relay = await harness.start();
  });

  afterAll(async () => {
    await harness.close();
    await telemetry?.shutdown();
  });

  it('records the upstream call with gen_ai attributes, child of the request span, and no prompt or answer', async () => {
    const { world } = harness;
    const model = world.model('traced');
    await world.price(model);
    await world.channel(aChannelOn(upstream, [model], { model_mapping: { [model]: 'gpt-4o-mini' } }));
    const key = await world.key(50_000_000);
    const call = () =>
      relay.post('/v1/chat/completions', bearer(key), {
        model,
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
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
