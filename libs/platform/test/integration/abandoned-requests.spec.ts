import { Controller, Get, Module, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  Public,
  baseServiceConfigSchema,
  createLogger,
  createServiceApp,
  loadConfig,
  type ServiceApp,
} from '../../src';

const SECRET = 'integration-secret-that-is-long-enough-0123456789';

/** A promise the test resolves from outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the handlers wait for, as a hanging upstream would keep them waiting. */
const gates = { entered: deferred(), release: deferred() };

@Public()
@Controller('probe')
class WaitingController {
  @Post('hang')
  async hang(): Promise<unknown> {
    gates.entered.resolve();
    await gates.release.promise;
    return { late: true };
  }

  @Get('stream')
  stream(@Res() reply: FastifyReply): void {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write('data: first\n\n');
    // The rest never comes: the client leaves after the first event.
  }

  @Get('done')
  done(): unknown {
    return { done: true };
  }
}

@Module({ controllers: [WaitingController] })
class WaitingModule {}

describe('HTTP metrics for requests their clients abandon', () => {
  let service: ServiceApp;
  let base: string;

  const scrape = async () => (await fetch(`${base}/metrics`)).text();
  const count = (text: string, route: string, status: number, method: string): number | undefined => {
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith(
          `tollgate_http_request_duration_seconds_count{service="probe",method="${method}",route="${route}",status="${status}"}`,
        ),
      );
    return line === undefined ? undefined : Number(line.split(' ').pop());
  };
  /** Scrapes until `until` holds (the server sees the client leave a moment after it did), or gives up. */
  const scrapeUntil = async (until: (text: string) => boolean): Promise<string> => {
    const deadline = Date.now() + 5000;
    let text = await scrape();
    while (!until(text) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      text = await scrape();
    }
    return text;
  };

  beforeAll(async () => {
    const config = loadConfig(baseServiceConfigSchema, {
      SERVICE_NAME: 'probe',
      PORT: '0',
      LOG_LEVEL: 'error',
      TOLLGATE_INTERNAL_TOKEN_SECRET: SECRET,
    });
    const logger = createLogger({
      service: 'probe',
      level: config.LOG_LEVEL,
      destination: { write: () => true },
    });
    service = await createServiceApp(WaitingModule, { service: 'probe', config, logger });
    base = `http://127.0.0.1:${await service.listen()}`;
  });

  afterAll(async () => {
    gates.release.resolve();
    await service.close();
  });

  it('counts a call its client left while the handler waited once, as 499 on its route', async () => {
    const client = new AbortController();
    const call = fetch(`${base}/probe/hang`, {
      method: 'POST',
      body: '{"model":"m"}',
      headers: { 'content-type': 'application/json' },
      signal: client.signal,
    });
    await gates.entered.promise;
    client.abort();
    await expect(call).rejects.toThrow();

    const abandoned = await scrapeUntil((text) => count(text, '/probe/hang', 499, 'POST') !== undefined);
    expect(count(abandoned, '/probe/hang', 499, 'POST')).toBe(1);

    // The handler answers late, to nobody: still one call, never also counted with the late status.
    gates.release.resolve();
    await new Promise((r) => setTimeout(r, 100));
    const after = await scrape();
    expect(count(after, '/probe/hang', 499, 'POST')).toBe(1);
    expect(count(after, '/probe/hang', 200, 'POST')).toBeUndefined();
    expect(count(after, '/probe/hang', 201, 'POST')).toBeUndefined();
  });

  it('counts a stream its client left after the first event once, with the status it was sent', async () => {
    const client = new AbortController();
    const response = await fetch(`${base}/probe/stream`, { signal: client.signal });
    const reader = response.body!.getReader();
    await reader.read();
    client.abort();

    const text = await scrapeUntil((t) => count(t, '/probe/stream', 200, 'GET') !== undefined);
    expect(count(text, '/probe/stream', 200, 'GET')).toBe(1);
    expect(count(text, '/probe/stream', 499, 'GET')).toBeUndefined();
  });

  it('counts a finished call once, with its status, and never as abandoned', async () => {
    expect((await fetch(`${base}/probe/done`)).status).toBe(200);
    // The response's close comes a moment after it finished: let it pass before reading.
    await new Promise((r) => setTimeout(r, 50));
    const text = await scrape();
    expect(count(text, '/probe/done', 200, 'GET')).toBe(1);
    expect(count(text, '/probe/done', 499, 'GET')).toBeUndefined();
  });
});
