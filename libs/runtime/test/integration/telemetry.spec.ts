import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { tracing } from '@opentelemetry/sdk-node';
import {
  InjectLogger,
  Public,
  baseServiceConfigSchema,
  createLogger,
  createServiceApp,
  loadConfig,
  type Logger,
  type ServiceApp,
} from '@tollgate/platform';
import { startTelemetry, type Telemetry } from '../../src';

const PROMPT = 'secret prompt text 4b1d';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

@Controller('probe')
class EchoController {
  constructor(@InjectLogger() private readonly logger: Logger) {}

  @Public()
  @Post('echo')
  echo(@Body() _body: unknown): { ok: true } {
    this.logger.info('handling echo');
    return { ok: true };
  }

  /** Whether the tracing hook put a server span around this handler. */
  @Public()
  @Get('span')
  span(): { traced: boolean } {
    return { traced: trace.getActiveSpan() !== undefined };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

/** Stands in for the OTLP exporter, whose transport loads `http` through a dynamic import Jest refuses. */
const collectingExporter = () => {
  const spans: tracing.ReadableSpan[] = [];
  const exporter: tracing.SpanExporter = {
    export: (batch, done) => {
      spans.push(...batch);
      done({ code: 0 });
    },
    shutdown: async () => undefined,
  };
  return { spans, exporter };
};

describe('startTelemetry with an exporter', () => {
  const collected = collectingExporter();
  let telemetry: Telemetry;
  let service: ServiceApp;
  let port: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    telemetry = await startTelemetry({
      serviceName: 'probe',
      spanExporter: collected.exporter,
    });
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_NAME: 'probe',
      PORT: '0',
      TOLLGATE_INTERNAL_TOKEN_SECRET: 'telemetry-secret-that-is-long-enough-42',
    });
    const logger = createLogger({
      service: 'probe',
      level: 'info',
      destination: { write: (line: string) => void logLines.push(line) },
    });
    service = await createServiceApp(EchoModule, { service: 'probe', config, logger });
    port = await service.listen();
  });

  afterAll(() => service.close());

  it('runs handlers inside the request span', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/probe/span`);
    expect(await response.json()).toEqual({ traced: true });
  });

  it('exports a server span that continues the caller trace and carries no body or query', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/probe/echo?key=AIza-query-secret`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ prompt: PROMPT }),
    });
    expect(response.status).toBe(201);
    await telemetry.shutdown();

    const span = collected.spans.find((item) => item.name === 'POST /probe/echo');
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span?.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/probe/echo',
      'http.response.status_code': 201,
    });
    const exported = JSON.stringify(
      collected.spans.map((item) => ({ name: item.name, attributes: item.attributes })),
    );
    expect(exported).not.toContain(PROMPT);
    expect(exported).not.toContain('AIza-query-secret');

    const handlerLine = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line['msg'] === 'handling echo');
    expect(handlerLine).toMatchObject({ traceId: TRACE_ID });
  });
});

describe('createServiceApp when telemetry exports nowhere', () => {
  let telemetry: Telemetry;
  let service: ServiceApp;

  beforeAll(async () => {
    telemetry = await startTelemetry({ serviceName: 'quiet-probe' });
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_NAME: 'quiet-probe',
      PORT: '0',
      TOLLGATE_INTERNAL_TOKEN_SECRET: 'telemetry-secret-that-is-long-enough-42',
    });
    const logger = createLogger({ service: 'quiet-probe', level: 'silent' });
    service = await createServiceApp(EchoModule, { service: 'quiet-probe', config, logger });
  });

  afterAll(async () => {
    await service?.close();
    await telemetry?.shutdown();
  });

  it('leaves the tracing hook out but keeps the request id', async () => {
    expect(telemetry.tracing).toBe(false);
    const port = await service.listen();
    const response = await fetch(`http://127.0.0.1:${port}/probe/span`, {
      headers: { 'x-request-id': 'quiet-request-1' },
    });
    expect(await response.json()).toEqual({ traced: false });
    expect(response.headers.get('x-request-id')).toBe('quiet-request-1');
  });
});
