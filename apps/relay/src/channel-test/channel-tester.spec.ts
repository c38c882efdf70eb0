import { aChannel } from '../../test/support/fixtures';
import type { ChannelKeys } from '../upstream/channel-keys';
import type { UpstreamClient, UpstreamResponse } from '../upstream/upstream-client';
import { ChannelTester } from './channel-tester';

/** An upstream that answers every call with `status` and an OpenAI error body saying `message`. */
function upstreamAnswering(status: number, message: string): UpstreamClient {
  const body = JSON.stringify({ error: { message, type: 'x', code: null } });
  return {
    send: async (): Promise<UpstreamResponse> => ({
      statusCode: status,
      headers: { 'content-type': 'application/json' },
      body: Object.assign(
        (async function* () {
          yield Buffer.from(body);
        })(),
        { text: async () => body, json: async () => JSON.parse(body) as unknown },
      ),
    }),
  } as unknown as UpstreamClient;
}

const keys = { keyOf: () => 'sk-upstream' } as unknown as ChannelKeys;
const channel = aChannel({ models: ['gpt-4o-mini'] });

describe('ChannelTester', () => {
  it('says the upstream’s HTTP status in a failed test, so a dead key and an outage read apart', async () => {
    const deadKey = await new ChannelTester(upstreamAnswering(401, 'injected'), keys).test({ channel });
    const outage = await new ChannelTester(upstreamAnswering(500, 'injected'), keys).test({ channel });
    expect(deadKey).toMatchObject({ success: false, message: 'HTTP 401 Unauthorized: injected' });
    expect(outage).toMatchObject({ success: false, message: 'HTTP 500 Internal Server Error: injected' });
  });

  it('says the status alone when the upstream gave no words, and cuts long words short', async () => {
    const silent = await new ChannelTester(upstreamAnswering(503, ''), keys).test({ channel });
    expect(silent.message).toBe('HTTP 503 Service Unavailable');
    const long = await new ChannelTester(upstreamAnswering(429, 'x'.repeat(1000)), keys).test({ channel });
    expect(long.message).toBe(`HTTP 429 Too Many Requests: ${'x'.repeat(300)}…`);
  });
});
