import { ErrorCode } from '@tollgate/contracts';
import type { Logger } from '@tollgate/platform';
import { RelayError } from '../errors/relay-error';
import {
  adapterForChannelType,
  channelTarget,
  MissingBaseUrlError,
  UnknownChannelTypeError,
  UnsupportedOperationError,
  type ChannelTarget,
  type ProviderAdapter,
  type UpstreamHttpRequest,
  type UpstreamUploadRequest,
} from '../providers';
import { UntranslatableRequestError } from '../canonical';
import {
  QueueFullError,
  QueueTimeoutError,
  upstreamHttpFailure,
  type AttemptFailure,
  type ChannelRouter,
  type Release,
  type RouteAttempt,
} from '../routing';
import { ChannelKeyError, type ChannelKeys } from '../upstream/channel-keys';
import {
  readLimited,
  UpstreamConnectError,
  type LateAnswer,
  type UpstreamClient,
  type UpstreamResponse,
} from '../upstream/upstream-client';
import type { CallAbort } from '../upstream/call-abort';
import { callLogIds, type CallContext } from './call-context';
import { ClientGoneError } from './client-reply';
import type { RelayMetrics } from './relay-metrics';
import { attemptOutcome, clientErrorForFailure, retryAfterSeconds, retryReason } from './upstream-failure';

/** The upstream said yes (2xx); nothing has reached the client yet. */
export interface Dispatched {
  response: UpstreamResponse;
  route: RouteAttempt;
  adapter: ProviderAdapter;
  /** Frees the channel's concurrency slot; call once the answer is over. */
  release: Release;
  /** performance.now() when the request went out. */
  sentAt: number;
  /** Where it went; trace spans take only its host and port. */
  url: string;
}

/** Builds the upstream call for a channel's adapter; UnsupportedOperationError skips the channel. */
export type BuildUpstreamRequest = (
  adapter: ProviderAdapter,
  target: ChannelTarget,
) => UpstreamHttpRequest | UpstreamUploadRequest;

const ERROR_BODY_LIMIT = 64 * 1024;

const noChannel = (model: string): RelayError =>
  new RelayError(ErrorCode.NoChannelAvailable, `No channel is available for the model ${model} right now`, 1);

/**
 * Sends a call to the first channel of the router's plan that answers 2xx. Connect errors, a stream
 * whose headers did not come in time, 429 and 5xx move on to the next channel: nothing has reached
 * the client at this point, so a retry is invisible to it. Every other refusal ends the call with
 * the matching client error. Each attempt's outcome is counted once per channel
 * (`tollgate_relay_upstream_attempts_total`).
 *
 * A client that leaves before the headers is not the channel's fault, with one exception made
 * knowable: a streamed attempt is held until its headers or its (short) headers timeout, and that
 * verdict goes to the channel's circuit (lateVerdict). Providers send a stream's headers at once, so
 * a client that left first does not say the channel is slow, but a timeout does say it hangs; without
 * this, a channel that hangs would never open its circuit while every client times out first.
 * A non-streamed answer's headers come with the whole answer, so nothing is learned from its wait.
 */
export class UpstreamDispatcher {
  constructor(
    private readonly router: ChannelRouter,
    private readonly upstream: UpstreamClient,
    private readonly keys: ChannelKeys,
    private readonly metrics: RelayMetrics,
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Throws RelayError when no channel served the call, ClientGoneError when the client left. */
  async dispatch(
    context: CallContext,
    model: string,
    abort: CallAbort,
    build: BuildUpstreamRequest,
  ): Promise<Dispatched> {
    const plan = this.router.plan(model, context.caller.group);
    let lastError: RelayError | undefined;
    for (const route of plan) {
      const prepared = this.prepare(context, route, build);
      if (prepared === undefined) continue;
      const { adapter, request } = prepared;
      let release: Release;
      try {
        release = await this.router.acquire(route.channel, context.caller.group, abort);
      } catch (error) {
        if (abort.aborted) throw new ClientGoneError();
        if (error instanceof QueueTimeoutError || error instanceof QueueFullError) {
          lastError = new RelayError(ErrorCode.ServiceUnavailable, error.message, error.retryAfterSeconds);
          this.metrics.retry(adapter.name, 'queue');
          continue;
        }
        throw error;
      }
      const sentAt = this.now();
      let failure: AttemptFailure;
      let retryAfter: number | undefined;
      try {
        const response = await this.upstream.send(
          request,
          abort,
          request.stream ? this.lateVerdict(route, adapter.name, model) : undefined,
          route.channel.stream_headers_timeout_seconds,
        );
        if (response.statusCode >= 200 && response.statusCode < 300) {
          this.router.recordSuccess(route.channel);
          this.metrics.attempt(adapter.name, route.channel.id, model, 'ok');
          return { response, route, adapter, release, sentAt, url: request.url };
        }
        retryAfter = retryAfterSeconds(response.headers['retry-after']);
        failure = upstreamHttpFailure(
          response.statusCode,
          await readLimited(response.body, ERROR_BODY_LIMIT).catch(() => ''),
        );
      } catch (error) {
        if (abort.aborted || !(error instanceof UpstreamConnectError)) {
          release();
          if (!abort.aborted) throw error;
          // A streamed attempt's outcome comes later, from lateVerdict.
          if (!request.stream)
            this.metrics.attempt(adapter.name, route.channel.id, model, 'client_abandoned');
          throw new ClientGoneError();
        }
        failure = { kind: 'connect', message: error.message, headersTimedOut: error.headersTimedOut };
      }
      release();
      this.router.recordFailure(route.channel, failure);
      this.metrics.attempt(adapter.name, route.channel.id, model, attemptOutcome(failure));
      this.logger.warn(
        {
          ...callLogIds(context),
          channelId: route.channel.id,
          provider: adapter.name,
          failure: failure.kind === 'http' ? failure.status : failure.message,
        },
        'upstream attempt failed',
      );
      lastError = clientErrorForFailure(failure, retryAfter);
      if (!this.router.isRetriable(failure)) throw lastError;
      this.metrics.retry(adapter.name, retryReason(failure));
    }
    throw lastError ?? noChannel(model);
  }

  /**
   * What a streamed attempt whose client left before the headers turned out to be: headers in time
   * are a success of the channel (counted `client_abandoned`: the client gave up, not the channel),
   * an error status or the headers timeout a failure like any other attempt's.
   */
  private lateVerdict(route: RouteAttempt, provider: string, model: string): LateAnswer {
    return (answer) => {
      const failure: AttemptFailure | undefined =
        typeof answer !== 'number'
          ? { kind: 'connect', message: answer.message, headersTimedOut: answer.headersTimedOut }
          : answer >= 200 && answer < 300
            ? undefined
            : upstreamHttpFailure(answer, '');
      if (failure === undefined) {
        this.router.recordSuccess(route.channel);
        this.metrics.attempt(provider, route.channel.id, model, 'client_abandoned');
        return;
      }
      this.router.recordFailure(route.channel, failure);
      this.metrics.attempt(provider, route.channel.id, model, attemptOutcome(failure));
    };
  }

  /** The adapter and request for a channel, or undefined when the channel cannot take this call. */
  private prepare(
    context: CallContext,
    route: RouteAttempt,
    build: BuildUpstreamRequest,
  ): { adapter: ProviderAdapter; request: UpstreamHttpRequest | UpstreamUploadRequest } | undefined {
    try {
      const adapter = adapterForChannelType(route.channel.type);
      const target = channelTarget(route.channel, this.keys.keyOf(route.channel), route.upstreamModel);
      return { adapter, request: build(adapter, target) };
    } catch (error) {
      if (error instanceof UntranslatableRequestError) {
        throw new RelayError(ErrorCode.ValidationFailed, error.message);
      }
      if (error instanceof UnsupportedOperationError) return undefined;
      if (
        error instanceof UnknownChannelTypeError ||
        error instanceof MissingBaseUrlError ||
        error instanceof ChannelKeyError
      ) {
        this.logger.warn(
          { ...callLogIds(context), channelId: route.channel.id, reason: error.name },
          'channel skipped: misconfigured',
        );
        return undefined;
      }
      throw error;
    }
  }
}
