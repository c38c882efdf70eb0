import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { baseServiceConfigSchema, createLogger, loadConfig } from '@tollgate/platform';
import { handedOverClientOf, markHandedOver, type RunningService } from './service-runtime';
import { ServiceClosingError, startNestService } from './start-nest-service';

@Module({})
class ProbeModule {}

async function startProbe(): Promise<RunningService> {
  const config = loadConfig(baseServiceConfigSchema, {
    SERVICE_NAME: 'probe',
    PORT: '0',
    LOG_LEVEL: 'silent',
    TOLLGATE_INTERNAL_TOKEN_SECRET: 'unit-secret-that-is-long-enough-0123456789',
  });
  return startNestService({
    name: 'probe',
    config,
    logger: createLogger({ service: 'probe', level: 'silent' }),
    module: { module: ProbeModule },
    beforeListen: async (app) => {
      app
        .getHttpAdapter()
        .getInstance()
        .post('/probe', async (request) => ({
          id: request.id,
          body: request.body,
          client: handedOverClientOf(request.raw) ?? null,
        }));
    },
  });
}

describe('startNestService: RunningService.handle', () => {
  let service: RunningService;
  let front: Server;
  let frontUrl: string;

  beforeEach(async () => {
    service = await startProbe();
    // Another server of the process (embedded mode's gateway) that hands every request over.
    front = createServer((req, res) => {
      markHandedOver(req, { ip: '203.0.113.7', protocol: 'https' });
      service.handle!(req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
    await service.close();
  });

  it('serves a request another server received: reads its body and answers on its response', async () => {
    const response = await fetch(`${frontUrl}/probe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'handed-0001' },
      body: JSON.stringify({ n: 1 }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('handed-0001');
    expect(await response.json()).toEqual({
      id: 'handed-0001',
      body: { n: 1 },
      client: { ip: '203.0.113.7', protocol: 'https' },
    });
  });

  it('refuses, without touching the request, once its close has begun', async () => {
    const closing = service.close();
    const req = {} as IncomingMessage;
    const res = {} as ServerResponse;

    expect(() => service.handle!(req, res)).toThrow(ServiceClosingError);
    await closing;
  });
});
