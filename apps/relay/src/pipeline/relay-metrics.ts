import type { ApiProtocol, CatalogChannel } from '@tollgate/contracts';
import type { MetricsService } from '@tollgate/platform';
import type { NormalizedUsage } from '../canonical';
import type { RefusalReason } from '../quota/quota-reservations';
import type { QueueWaitOutcome } from '../routing/channel-queues';

/** Label for a model outside the price catalogue: labels never carry what a client typed. */
export const UNKNOWN_MODEL = 'unknown';
export const NO_PROVIDER = 'none';

export type RetryReason =
  | 'connect'
  | 'first_byte_timeout'
  | 'rate_limited'
  | 'upstream_5xx'
  | 'invalid_key'
  | 'quota_exhausted'
  | 'queue';

/** How one attempt on a channel ended, up to the answer's headers (docs/monitoring.md). */
export type AttemptOutcome =
  | 'ok'
  | 'upstream_5xx'
  | 'upstream_429'
  | 'auth'
  | 'timeout_first_byte'
  | 'connect_error'
  | 'client_abandoned'
  | 'other';

/** The relay's metrics from the platform catalogue, with bounded labels only. */
export class RelayMetrics {
  private readonly requests;
  private readonly upstreamLatency;
  private readonly timeToFirstToken;
  private readonly tokens;
  private readonly retries;
  private readonly attempts;
  private readonly channelHealthy;
  private readonly queueDepth;
  private readonly queueWaits;
  private readonly refused;

  constructor(metrics: MetricsService) {
    this.requests = metrics.counter('relayRequests');
    this.upstreamLatency = metrics.histogram('relayUpstreamLatency');
    this.timeToFirstToken = metrics.histogram('relayTimeToFirstToken');
    this.tokens = metrics.histogram('relayTokens');
    this.retries = metrics.counter('relayRetries');
    this.attempts = metrics.counter('relayUpstreamAttempts');
    this.channelHealthy = metrics.gauge('channelHealthy');
    this.queueDepth = metrics.gauge('relayQueueDepth');
    this.queueWaits = metrics.histogram('relayQueueWait');
    this.refused = metrics.counter('refusedReservations');
  }

  /** outcome: the usage status, or the error code of a refused call. */
  request(protocol: ApiProtocol, model: string, provider: string, outcome: string): void {
    this.requests.inc({ protocol, model, provider, outcome });
  }

  upstream(provider: string, channelId: number, model: string, seconds: number): void {
    this.upstreamLatency.observe({ provider, channel: String(channelId), model }, seconds);
  }

  firstToken(provider: string, model: string, seconds: number): void {
    this.timeToFirstToken.observe({ provider, model }, seconds);
  }

  usage(model: string, usage: NormalizedUsage): void {
    this.tokens.observe({ model, kind: 'prompt' }, usage.prompt_tokens);
    this.tokens.observe({ model, kind: 'completion' }, usage.completion_tokens);
  }

  retry(provider: string, reason: RetryReason): void {
    this.retries.inc({ provider, reason });
  }

  /** One attempt on a channel; its series is found again by its labels (bound once, metric-series.ts). */
  attempt(provider: string, channelId: number, model: string, outcome: AttemptOutcome): void {
    this.attempts.inc({ provider, channel: channelId, model, outcome });
  }

  health(channel: CatalogChannel, provider: string, healthy: boolean): void {
    this.channelHealthy.set({ channel: String(channel.id), provider }, healthy ? 1 : 0);
  }

  /** A deleted channel's health series goes, so no alert keeps firing for a channel that is not there. */
  forget(channel: CatalogChannel, provider: string): void {
    this.channelHealthy.remove({ channel: String(channel.id), provider });
  }

  queue(channelId: number, depth: number): void {
    this.queueDepth.set({ channel: String(channelId) }, depth);
  }

  queueWait(channelId: number, seconds: number, outcome: QueueWaitOutcome): void {
    this.queueWaits.observe({ channel: String(channelId), outcome }, seconds);
  }

  refusal(reason: RefusalReason): void {
    this.refused.inc({ reason });
  }
}
