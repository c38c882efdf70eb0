import { ErrorCode, type CatalogChannel } from '@tollgate/contracts';
import { MetricsService, type Logger } from '@tollgate/platform';
import { aChannel, aToken, aUser } from '../../test/support/fixtures';
import { RelayError } from '../errors/relay-error';
import { QueueTimeoutError, type AttemptFailure, type ChannelRouter, type RouteAttempt } from '../routing';
import type { ChannelKeys } from '../upstream/channel-keys';
import { UpstreamConnectError, type UpstreamClient } from '../upstream/upstream-client';
import type { CallContext } from './call-context';
import { ClientGoneError } from './client-reply';
import { RelayMetrics } from './relay-metrics';
import { UpstreamDispatcher } from './upstream-dispatcher';
import { CallAbortSource } from '../upstream/call-abort';

const silent = { warn: () => undefined } as unknown as Logger;
const context: CallContext = {
  requestId: 'r',
  correlationId: 'r',
  protocol: 'openai',
  caller: { token: aToken(), user: aUser(), group: 'default' },
  startedAt: 0,
};

type Outcome = number | 'connect' | 'queue-timeout';

/** A router over fixed channels whose calls answer with the given outcomes, one per channel. */
function setup(outcomes: Outcome[]) {
  const channels = outcomes.map((_, i) => aChannel({ id: i + 1, base_url: `http://upstream-${i + 1}` }));
  const failures: [number, AttemptFailure][] = [];
  const successes: number[] = [];
  const released: number[] = [];
  const router = {
    plan: (): RouteAttempt[] => channels.map((channel) => ({ channel, upstreamModel: 'm' })),
    acquire: async (channel: CatalogChannel) => {
      if (outcomes[channel.id - 1] === 'queue-timeout') throw new QueueTimeoutError(channel.id, 3);
      return () => void released.push(channel.id);
    },
    isRetriable: (f: AttemptFailure) => f.kind === 'connect' || f.status === 429 || f.status >= 500,
    recordSuccess: (channel: CatalogChannel) => void successes.push(channel.id),
    recordFailure: (channel: CatalogChannel, f: AttemptFailure) => void failures.push([channel.id, f]),
  } as unknown as ChannelRouter;
  const sent: string[] = [];
  const upstream = {
    send: async (request: { url: string }) => {
      sent.push(new URL(request.url).host);
      const outcome = outcomes[Number(new URL(request.url).host.split('-')[1]) - 1]!;
      if (outcome === 'connect') throw new UpstreamConnectError('ECONNREFUSED', false);
      return {
        statusCode: outcome,
        headers: outcome === 429 ? { 'retry-after': '7' } : {},
        body: (async function* () {
          yield Buffer.from(JSON.stringify({ error: { message: `status ${outcome}`, type: 'x' } }));
        })(),
      };
    },
  } as unknown as UpstreamClient;
  const keys = { keyOf: () => 'sk-upstream' } as unknown as ChannelKeys;
  const dispatcher = new UpstreamDispatcher(
    router,
    upstream,
    keys,
    new RelayMetrics(new MetricsService('t')),
    silent,
  );
  const dispatch = (abort = new CallAbortSource()) =>
    dispatcher.dispatch(context, 'm', abort, (adapter, target) =>
      adapter.buildChatRequest({ model: 'm', messages: [] }, target),
    );
  return { dispatch, failures, successes, released, sent };
}

describe('UpstreamDispatcher', () => {
  it('moves on after connect errors, 429 and 5xx, and returns the first 2xx', async () => {
    const { dispatch, failures, successes, released } = setup(['connect', 503, 200]);
    const result = await dispatch();
    expect(result.route.channel.id).toBe(3);
    expect(failures.map(([id, f]) => [id, f.kind])).toEqual([
      [1, 'connect'],
      [2, 'http'],
    ]);
    expect(successes).toEqual([3]);
    expect(released).toEqual([1, 2]);
  });

  it('stops at a failure that is not retriable and passes a 400 on with the upstream message', async () => {
    const { dispatch, sent } = setup([400, 200]);
    await expect(dispatch()).rejects.toMatchObject({ status: 400, message: 'status 400' });
    expect(sent).toEqual(['upstream-1']);
  });

  it('answers the last failure when every channel failed, with the upstream Retry-After on 429', async () => {
    const { dispatch } = setup([503, 429]);
    const error = (await dispatch().catch((e: unknown) => e)) as RelayError;
    expect(error).toMatchObject({ code: ErrorCode.RateLimited, status: 429, retryAfterSeconds: 7 });
  });

  it('answers 503 with Retry-After when the only channel’s queue timed out', async () => {
    const { dispatch } = setup(['queue-timeout']);
    await expect(dispatch()).rejects.toMatchObject({ status: 503, retryAfterSeconds: 3 });
  });

  it('answers 503 when the router has no channel at all', async () => {
    const { dispatch } = setup([]);
    await expect(dispatch()).rejects.toMatchObject({ code: ErrorCode.NoChannelAvailable, status: 503 });
  });

  it('reports a client that left instead of an upstream failure', async () => {
    const { dispatch } = setup(['connect']);
    const controller = new CallAbortSource();
    controller.abort();
    await expect(dispatch(controller)).rejects.toBeInstanceOf(ClientGoneError);
  });
});
