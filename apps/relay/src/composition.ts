import {
  parseGroupRateLimits,
  RATE_LIMIT_WINDOW_MS,
  SETTING_KEYS,
  TOPICS,
  type CatalogChannel,
  type GroupRateLimits,
  type IdentityUser,
} from '@tollgate/contracts';
import type { EventBus } from '@tollgate/events';
import type { KvStore } from '@tollgate/kv';
import { isTracingEnabled, parseMasterKey, type Logger, type MetricsService } from '@tollgate/platform';
import type { SettingsTable } from '@tollgate/runtime';
import { keepCallStateYoung } from '@tollgate/runtime/main';
import { CallerAccess, type Caller } from './access/caller-access';
import { ApiKeyHasher, KeyIndex } from './access/key-index';
import { ChannelStatusClient } from './admin/channel-status.client';
import { AudioRelay } from './audio/audio-relay';
import { ChannelModelsLister } from './channel-test/channel-models-lister';
import { ChannelTester } from './channel-test/channel-tester';
import type { RelayConfig } from './config';
import { BillingUsageClient } from './key-account/billing-usage.client';
import { KeyAccount } from './key-account/key-account';
import { RateLimiter } from './limits/rate-limiter';
import { modelsForCaller, type CallableModel } from './models/model-listing';
import { ChatRelay } from './pipeline/chat-relay';
import { EmbeddingsRelay } from './pipeline/embeddings-relay';
import { GenAiSpans } from './pipeline/gen-ai-spans';
import { Metering } from './pipeline/metering';
import { PassThroughRelay } from './pipeline/pass-through-relay';
import { RelayMetrics } from './pipeline/relay-metrics';
import { TokenCountRelay } from './pipeline/token-count-relay';
import { UpstreamDispatcher } from './pipeline/upstream-dispatcher';
import { costTerms, type CostTerms } from './pricing/call-cost';
import { PriceBook } from './pricing/price-book';
import { adapterForChannelType, UnknownChannelTypeError } from './providers';
import { PerCallClaims, type AccountClaims } from './quota/account-claims';
import { LeasedClaims } from './quota/leased-claims';
import { QuotaReservations } from './quota/quota-reservations';
import type { ReadModels } from './read-models/read-models.service';
import { ChannelRouter } from './routing';
import type { HeldChannel } from './routing/channel-breakers';
import { countPromptTokens, countTextTokens } from './token-counting';
import { ChannelKeys } from './upstream/channel-keys';
import { UpstreamClient } from './upstream/upstream-client';
import { RetryingUsageSink } from './usage/retrying-usage-sink';
import { UsageSpool } from './usage/usage-spool';

/** Everything a /v1 call needs, built once the read models are open. */
export interface HotPath {
  access: CallerAccess;
  chat: ChatRelay;
  passThrough: PassThroughRelay;
  /** Embeddings for Gemini clients (embedContent, batchEmbedContents) on any family that embeds. */
  embeddings: EmbeddingsRelay;
  /** Free prompt counts (Anthropic count_tokens, Gemini countTokens). */
  tokenCount: TokenCountRelay;
  /** Audio transcriptions and translations (file uploads). */
  audio: AudioRelay;
  /** What a key may learn about itself and its calls (GET /v1/key, /v1/generation, …). */
  account: KeyAccount;
  /** The models the caller's key may use, sorted by name. */
  models(caller: Caller): CallableModel[];
  /** The channels this process's circuit breakers hold out (CHANNEL_BREAKERS_CALL). */
  heldChannels(): HeldChannel[];
  isCaughtUp(): boolean;
}

export type Closer = () => Promise<void> | void;

/**
 * What reaches upstreams straight, built from configuration alone so that Nest can provide it before
 * the read models open: the hot path sends through its client, and admin's channel test and model list
 * (ChannelTestController, injected with the tester and the lister) use it without routing or billing.
 */
export interface RelayUpstream {
  client: UpstreamClient;
  keys: ChannelKeys;
  channelTester: ChannelTester;
  channelModelsLister: ChannelModelsLister;
}

export function composeUpstream(config: RelayConfig): RelayUpstream {
  // The first part of the relay built, before its read models load and before any call.
  keepCallStateYoung();
  const client = new UpstreamClient({
    connectionsPerOrigin: config.RELAY_UPSTREAM_CONNECTIONS,
    headersTimeoutMs: config.RELAY_UPSTREAM_HEADERS_TIMEOUT_MS,
    streamHeadersTimeoutMs: config.RELAY_UPSTREAM_STREAM_HEADERS_TIMEOUT_MS,
  });
  const keys = new ChannelKeys(parseMasterKey(config.TOLLGATE_ENCRYPTION_KEY));
  return {
    client,
    keys,
    channelTester: new ChannelTester(client, keys),
    channelModelsLister: new ChannelModelsLister(keys),
  };
}

/** What Nest's lifecycle (RelayRuntime) opened and hands to the composition. */
export interface RelayInfrastructure {
  config: RelayConfig;
  logger: Logger;
  bus: EventBus;
  kv: KvStore;
  metricsService: MetricsService;
  models: ReadModels;
  settings: SettingsTable;
  /** Provided by Nest from the configuration (composeUpstream); its client is closed with the hot path. */
  upstream: RelayUpstream;
  /** Whether the read models have caught up with their topics. */
  readModelsCaughtUp(): boolean;
  /**
   * Where each part that must be closed is registered as soon as it exists, so a composition that
   * fails halfway still closes what it opened. Closed in reverse order.
   */
  closers: Closer[];
}

/** The relay's plain object graph for the /v1 hot path. */
export interface RelayComposition {
  hotPath: HotPath;
  /** Started by the lifecycle once composed: it publishes what the spool holds. */
  usageSink: RetryingUsageSink;
}

/** Builds the relay's hot path from its infrastructure: key index, router, metering, the relays. */
export function composeRelay(infra: RelayInfrastructure): RelayComposition {
  const { config, logger, models, closers } = infra;
  const masterKey = parseMasterKey(config.TOLLGATE_ENCRYPTION_KEY);
  const { client: upstream, keys } = infra.upstream;
  const metrics = new RelayMetrics(infra.metricsService);
  const keyIndex = new KeyIndex(models.tokens);
  closers.push(() => keyIndex.close());
  const access = new CallerAccess(keyIndex, new ApiKeyHasher(masterKey), models.users);
  const admin = new ChannelStatusClient(config.ADMIN_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET, logger);
  const router = new ChannelRouter(
    models.channels,
    {
      maxRetries: config.RELAY_MAX_RETRIES,
      queueTimeoutMs: config.RELAY_QUEUE_TIMEOUT_MS,
      queueCapacity: config.RELAY_QUEUE_CAPACITY,
      priorityGroups: config.RELAY_PRIORITY_GROUPS.split(',')
        .map((g) => g.trim())
        .filter((g) => g !== ''),
      breaker: {
        consecutiveFailures: config.RELAY_BREAKER_FAILURES,
        halfOpenAfterMs: config.RELAY_BREAKER_HALF_OPEN_MS,
      },
    },
    {
      onAutoBan: (channel, reason, status) => admin.autoDisable(channel.id, reason, status),
      onHealthChange: (channel, healthy) => metrics.health(channel, providerName(channel), healthy),
      onChannelGone: (channel) => metrics.forget(channel, providerName(channel)),
      onQueueDepth: (channelId, depth) => metrics.queue(channelId, depth),
      onQueueWait: (channelId, seconds, outcome) => metrics.queueWait(channelId, seconds, outcome),
    },
  );
  closers.push(() => router.dispose());
  const prices = new PriceBook(models.prices);
  const now = () => performance.now();
  const reservations = new QuotaReservations(claims(infra, config.RELAY_QUOTA_HOLD_MS), {
    quotaOf: (userId) => models.balances.get(String(userId))?.quota,
  });
  closers.push(() => reservations.close());
  const groupRateLimits = groupRateLimitsOf(infra.settings);
  const limiter = new RateLimiter(
    {
      requests: claims(infra, RATE_LIMIT_WINDOW_MS),
      tokens: claims(infra, RATE_LIMIT_WINDOW_MS),
      concurrency: claims(infra, 0),
    },
    groupRateLimits,
  );
  closers.push(() => limiter.close());
  // A call served while the broker is away is still charged: its event is held, spooled to disk and
  // published later, by this relay or the next one to start with the same spool directory.
  // Embedded mode gets the same sink: its in-process bus appends to a log on this machine's disk, so
  // no broker can be away and a publish fails only when that disk or the bus itself does, which a
  // spool beside it would not survive either; the spool, touched only after a failed publish, stays
  // empty there at no cost, and one path serves both modes.
  const usageSink = new RetryingUsageSink({
    publish: (events) =>
      infra.bus.publish(
        events.map(({ event, headers }) => ({
          topic: TOPICS.usageRecorded.name,
          key: String(event.user_id),
          value: event,
          headers,
        })),
      ),
    logger,
    spool: new UsageSpool({ directory: config.RELAY_USAGE_SPOOL_DIR, logger }),
  });
  closers.push(() => usageSink.close());
  /** How each account is told its costs: in its currency at billing's published rate. */
  const termsOf = (user: IdentityUser): CostTerms =>
    costTerms(user.default_currency ?? config.TOLLGATE_DEFAULT_CURRENCY, prices.rubPerUsd());
  const metering = new Metering({
    reservations,
    sink: usageSink,
    metrics,
    logger,
    estimatePolicy: { defaultMaxOutputTokens: config.RELAY_DEFAULT_MAX_OUTPUT_TOKENS },
    now,
    // gen_ai spans of upstream calls cost nothing unless the process exports traces.
    spans: isTracingEnabled() ? new GenAiSpans() : undefined,
    limiter,
    costTerms: termsOf,
  });
  // Closed before the sink, the rate limits and the reservations (closers run in reverse): calls still
  // finishing publish their events and settle their reservations first.
  closers.push(() => metering.finished());
  const dispatcher = new UpstreamDispatcher(router, upstream, keys, metrics, logger, now);
  const tokens = { countPromptTokens, countTextTokens };
  const shared = { access, prices, channels: router, metering, dispatcher, metrics, tokens, now };
  const hotPath: HotPath = {
    access,
    chat: new ChatRelay({ ...shared, logger }),
    passThrough: new PassThroughRelay(shared),
    embeddings: new EmbeddingsRelay(shared),
    tokenCount: new TokenCountRelay(shared),
    audio: new AudioRelay({
      ...shared,
      uploads: { fileBytes: config.RELAY_AUDIO_FILE_LIMIT_BYTES, directory: config.RELAY_UPLOAD_DIR },
    }),
    account: new KeyAccount({
      balances: { balanceOf: (userId) => models.balances.get(String(userId)) },
      usage: new BillingUsageClient(config.BILLING_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET),
      groupRateLimits,
      costTerms: termsOf,
    }),
    models: (caller) =>
      modelsForCaller(
        { channels: models.channels, prices: models.prices, quotes: prices, costTerms: termsOf },
        caller,
      ),
    heldChannels: () => router.heldChannels(),
    isCaughtUp: () => infra.readModelsCaughtUp() && infra.settings.isCaughtUp(),
  };
  closers.push(() => upstream.close());
  return { hotPath, usageSink };
}

function providerName(channel: CatalogChannel): string {
  try {
    return adapterForChannelType(channel.type).name;
  } catch (error) {
    if (error instanceof UnknownChannelTypeError) return 'unknown';
    throw error;
  }
}

/**
 * Claims on shared-store accounts (a balance, a key's quota, a rate limit), leased when
 * RELAY_QUOTA_LEASE_MS is set; what a claim cost keeps counting for `holdMs` once it ends.
 */
function claims({ config, kv, logger }: RelayInfrastructure, holdMs: number): AccountClaims {
  const policy = { reservationTtlMs: config.RELAY_RESERVATION_TTL_MS, holdMs };
  if (config.RELAY_QUOTA_LEASE_MS === 0) return new PerCallClaims(kv, policy);
  return new LeasedClaims(
    kv,
    { ...policy, leaseMs: config.RELAY_QUOTA_LEASE_MS, callsPerLease: config.RELAY_QUOTA_LEASE_CALLS },
    logger,
  );
}

/** GroupRateLimits as operators last set it, parsed once per change. */
function groupRateLimitsOf(settings: SettingsTable): () => GroupRateLimits {
  let text: string | undefined;
  let parsed: GroupRateLimits = {};
  return () => {
    const current = settings.get(SETTING_KEYS.groupRateLimits);
    if (current !== text) {
      text = current;
      parsed = parseGroupRateLimits(current);
    }
    return parsed;
  };
}
