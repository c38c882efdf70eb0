import { ErrorCode, type CatalogChannel } from '@tollgate/contracts';
import { MetricsService, type Logger } from '@tollgate/platform';
import { aChannel, aToken, aUser } from '../../test/support/fixtures';
import { RelayError } from '../errors/relay-error';
import { QueueTimeoutError, type AttemptFailure, type ChannelRouter, type RouteAttempt } from '../routing';
import type { ChannelKeys } from '../upstream/channel-keys';
import { UpstreamConnectError, type LateAnswer, type UpstreamClient } from '../upstream/upstream-client';
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

type Outcome = number | 'connect' | 'hang' | 'queue-timeout';

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
    // As the router: a dead key (401) moves on too.
    isRetriable: (f: AttemptFailure) =>
      f.kind === 'connect' || f.status === 401 || f.status === 429 || f.status >= 500,
    recordSuccess: (channel: CatalogChannel) => void successes.push(channel.id),
    recordFailure: (channel: CatalogChannel, f: AttemptFailure) => void failures.push([channel.id, f]),
  } as unknown as ChannelRouter;
  const sent: string[] = [];
  /** What each held attempt (a stream whose client left first) was told to report. */
  const held: LateAnswer[] = [];
  const upstream = {
    send: async (request: { url: string }, abort: CallAbortSource, late?: LateAnswer) => {
      sent.push(new URL(request.url).host);
      const outcome = outcomes[Number(new URL(request.url).host.split('-')[1]) - 1]!;
      if (outcome === 'connect') throw new UpstreamConnectError('ECONNREFUSED', false);
      if (outcome === 'hang') {
        if (late) held.push(late);
        await new Promise<void>((resolve) => abort.onAbort(resolve));
        throw new Error('aborted');
      }
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
  const metricsService = new MetricsService('t');
  const dispatcher = new UpstreamDispatcher(router, upstream, keys, new RelayMetrics(metricsService), silent);
  const dispatch = (abort = new CallAbortSource(), stream = false) =>
    dispatcher.dispatch(context, 'm', abort, (adapter, target) =>
      adapter.buildChatRequest({ model: 'm', messages: [], stream }, target),
    );
  /** `name{labels} value` lines of one metric, the service label left out. */
  const series = async (name: string): Promise<string[]> =>
    (await metricsService.render())
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`))
      .map((line) => line.replace(/,?service="t"/, '').replace('{,', '{'));
  return { dispatch, failures, successes, released, sent, held, series };
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

  it('counts every attempt by channel and outcome, and a retry after a dead key as invalid_key', async () => {
    const { dispatch, series } = setup([401, 503, 'connect', 200]);
    await dispatch();
    expect(await series('tollgate_relay_upstream_attempts_total')).toEqual([
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="1",model="m",outcome="auth"} 1',
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="2",model="m",outcome="upstream_5xx"} 1',
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="3",model="m",outcome="connect_error"} 1',
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="4",model="m",outcome="ok"} 1',
    ]);
    expect(await series('tollgate_relay_retries_total')).toEqual([
      'tollgate_relay_retries_total{provider="openai",reason="invalid_key"} 1',
      'tollgate_relay_retries_total{provider="openai",reason="upstream_5xx"} 1',
      'tollgate_relay_retries_total{provider="openai",reason="connect"} 1',
    ]);
  });

  it('counts a plain call whose client left while the upstream thought as abandoned, not against the channel', async () => {
    const { dispatch, failures, held, series } = setup(['hang']);
    const client = new CallAbortSource();
    const call = dispatch(client);
    await new Promise((resolve) => setImmediate(resolve));
    client.abort();
    await expect(call).rejects.toBeInstanceOf(ClientGoneError);
    expect(held).toEqual([]);
    expect(failures).toEqual([]);
    expect(await series('tollgate_relay_upstream_attempts_total')).toEqual([
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="1",model="m",outcome="client_abandoned"} 1',
    ]);
  });

  it('holds a stream whose client left before its headers and judges the channel by what came', async () => {
    const { dispatch, failures, successes, held, series } = setup(['hang']);
    for (let i = 0; i < 2; i++) {
      const client = new CallAbortSource();
      const call = dispatch(client, true);
      await new Promise((resolve) => setImmediate(resolve));
      client.abort();
      await expect(call).rejects.toBeInstanceOf(ClientGoneError);
    }
    expect(held).toHaveLength(2);
    expect(await series('tollgate_relay_upstream_attempts_total')).toEqual([]);
    held[0]!(new UpstreamConnectError('UND_ERR_HEADERS_TIMEOUT', true, true));
    held[1]!(200);
    expect(failures).toEqual([
      [1, { kind: 'connect', message: 'UND_ERR_HEADERS_TIMEOUT', headersTimedOut: true }],
    ]);
    expect(successes).toEqual([1]);
    expect(await series('tollgate_relay_upstream_attempts_total')).toEqual([
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="1",model="m",outcome="timeout_first_byte"} 1',
      'tollgate_relay_upstream_attempts_total{provider="openai",channel="1",model="m",outcome="client_abandoned"} 1',
    ]);
  });
});
