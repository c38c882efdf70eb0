import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CHANNEL_BREAKERS_CALL,
  CHANNEL_MODELS_CALL,
  CHANNEL_TEST_CALL,
  channelModelsRequest,
  channelTestRequest,
  type ChannelBreakersResult,
  type ChannelTestRequest,
  type ChannelTestResult,
} from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, verifyServiceToken } from '@tollgate/platform';

export type TestOutcome = Omit<ChannelTestResult, 'model'>;

/**
 * Relay's CHANNEL_TEST_CALL, CHANNEL_MODELS_CALL and CHANNEL_BREAKERS_CALL as a small HTTP server:
 * checks each call's service token (and a test's request) like relay does, records each test
 * request, and answers what the test chose: a test's outcome by the channel's name, the breakers
 * `breakers` (HTTP 503 while `breakersDown`).
 */
export class StandInRelay {
  readonly requests: ChannelTestRequest[] = [];
  /** Outcome by channel name; channels not listed pass in 25 ms. */
  readonly outcomes = new Map<string, TestOutcome>();
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

  static async start(secret: string): Promise<StandInRelay> {
    const relay = new StandInRelay(secret);
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    relay.address = `http://127.0.0.1:${(relay.server.address() as AddressInfo).port}`;
    return relay;
  }

  get url(): string {
    return this.address;
  }

  private async answer(request: IncomingMessage, text: string): Promise<{ status: number; body: unknown }> {
    if (request.method === CHANNEL_MODELS_CALL.method && request.url === CHANNEL_MODELS_CALL.path) {
      return this.models(request, text);
    }
    if (request.method === CHANNEL_BREAKERS_CALL.method && request.url === CHANNEL_BREAKERS_CALL.path) {
      return this.heldChannels(request);
    }
    if (request.method !== CHANNEL_TEST_CALL.method || request.url !== CHANNEL_TEST_CALL.path) {
      return { status: 404, body: { success: false, message: 'not found' } };
    }
    try {
      await verifyServiceToken(
        String(request.headers[SERVICE_TOKEN_HEADER] ?? ''),
        this.secret,
        CHANNEL_TEST_CALL.audience,
      );
    } catch {
      return { status: 401, body: { success: false, message: 'A valid service token is required' } };
    }
    const parsed = channelTestRequest.safeParse(JSON.parse(text));
    if (!parsed.success) return { status: 400, body: { success: false, message: parsed.error.message } };
    this.requests.push(parsed.data);
    const outcome = this.outcomes.get(parsed.data.channel.name) ?? {
      success: true,
      time_ms: 25,
      message: '',
    };
    return { status: 200, body: { ...outcome, model: parsed.data.model ?? parsed.data.channel.test_model } };
  }

  /** CHANNEL_MODELS_CALL: the channel's own models and one more, or a failure for a channel named `no-list`. */
  private async models(request: IncomingMessage, text: string): Promise<{ status: number; body: unknown }> {
    try {
      await verifyServiceToken(
        String(request.headers[SERVICE_TOKEN_HEADER] ?? ''),
        this.secret,
        CHANNEL_MODELS_CALL.audience,
      );
    } catch {
      return { status: 401, body: { success: false, message: 'A valid service token is required' } };
    }
    const parsed = channelModelsRequest.safeParse(JSON.parse(text));
    if (!parsed.success) return { status: 400, body: { success: false, message: parsed.error.message } };
    const { channel } = parsed.data;
    return channel.name === 'no-list'
      ? { status: 200, body: { success: false, models: [], message: 'The upstream answered 401' } }
      : {
          status: 200,
          body: { success: true, models: [...channel.models, 'o3-mini'].sort(), message: 'ok' },
        };
  }

  /** CHANNEL_BREAKERS_CALL: `breakers`, or a relay still starting while `breakersDown`. */
  private async heldChannels(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    try {
      await verifyServiceToken(
        String(request.headers[SERVICE_TOKEN_HEADER] ?? ''),
        this.secret,
        CHANNEL_BREAKERS_CALL.audience,
      );
    } catch {
      return { status: 401, body: { success: false, message: 'A valid service token is required' } };
    }
    return this.breakersDown
      ? { status: 503, body: { success: false, message: 'Relay is starting' } }
      : { status: 200, body: this.breakers };
  }

  requestsFor(channelId: number): ChannelTestRequest[] {
    return this.requests.filter((request) => request.channel.id === channelId);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
