import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CHANNEL_BREAKERS_CALL,
  CHANNEL_TEST_CALL,
  channelTestRequest,
  type ChannelBreakersResult,
  type ChannelTestResult,
} from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from '@tollgate/platform';

/**
 * Relay's CHANNEL_TEST_CALL and CHANNEL_BREAKERS_CALL as a small HTTP server, each checking its own
 * service token audience: the test answers `testOutcome`, the breaker list `breakers` (or HTTP 503
 * while `breakersDown`).
 */
export class HealthStandInRelay {
  testOutcome: Omit<ChannelTestResult, 'model'> = { success: true, time_ms: 25, message: '' };
  breakers: ChannelBreakersResult = { channels: [] };
  breakersDown = false;
  private readonly server: Server;
  private address = '';

  private constructor(private readonly secret: string) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void this.answer(request, Buffer.concat(chunks).toString('utf8')).then(({ status, body }) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(body));
        });
      });
    });
  }

  static async start(secret: string): Promise<HealthStandInRelay> {
    const relay = new HealthStandInRelay(secret);
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    relay.address = `http://127.0.0.1:${(relay.server.address() as AddressInfo).port}`;
    return relay;
  }

  get url(): string {
    return this.address;
  }

  private async answer(request: IncomingMessage, text: string): Promise<{ status: number; body: unknown }> {
    const call = [CHANNEL_TEST_CALL, CHANNEL_BREAKERS_CALL].find(
      (known) => known.method === request.method && known.path === request.url,
    );
    if (!call) return { status: 404, body: { success: false, message: 'not found' } };
    try {
      await verifyServiceToken(
        String(request.headers[SERVICE_TOKEN_HEADER] ?? ''),
        this.secret,
        call.audience,
      );
    } catch {
      return { status: 401, body: { success: false, message: 'A valid service token is required' } };
    }
    if (call === CHANNEL_BREAKERS_CALL) {
      return this.breakersDown
        ? { status: 503, body: { success: false, message: 'Relay is starting' } }
        : { status: 200, body: this.breakers };
    }
    const parsed = channelTestRequest.safeParse(JSON.parse(text));
    if (!parsed.success) return { status: 400, body: { success: false, message: parsed.error.message } };
    return {
      status: 200,
      body: { ...this.testOutcome, model: parsed.data.model ?? parsed.data.channel.test_model },
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
