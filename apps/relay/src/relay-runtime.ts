import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  parseGroupRateLimits,
  RATE_LIMIT_WINDOW_MS,
  SETTING_KEYS,
  TOPICS,
  type ApiProtocol,
  type CatalogChannel,
  type GroupRateLimits,
} from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import {
  InjectLogger,
  InjectServiceConfig,
  isTracingEnabled,
  MetricsService,
  parseMasterKey,
  type Logger,
} from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import { CallerAccess } from './access/caller-access';
import { ApiKeyHasher, KeyIndex } from './access/key-index';
import { ChannelStatusClient } from './admin/channel-status.client';
import { ChannelTester } from './channel-test/channel-tester';
import { ChannelModelsLister } from './channel-test/channel-models-lister';
import type { RelayConfig } from './config';
import { modelsForCaller, type CallableModel } from './models/model-listing';
import { ChatRelay } from './pipeline/chat-relay';
import { GenAiSpans } from './pipeline/gen-ai-spans';
import { costTerms } from './pricing/call-cost';
import { Metering } from './pipeline/metering';
import { AudioRelay } from './audio/audio-relay';
import { EmbeddingsRelay } from './pipeline/embeddings-relay';
import { PassThroughRelay } from './pipeline/pass-through-relay';
import { TokenCountRelay } from './pipeline/token-count-relay';
import { RelayMetrics } from './pipeline/relay-metrics';
import { UpstreamDispatcher } from './pipeline/upstream-dispatcher';
import { PriceBook } from './pricing/price-book';
import { adapterForChannelType, UnknownChannelTypeError } from './providers';
import { BillingUsageClient } from './key-account/billing-usage.client';
import { KeyAccount } from './key-account/key-account';
import { RateLimiter } from './limits/rate-limiter';
import { PerCallClaims, type AccountClaims } from './quota/account-claims';
import { LeasedClaims } from './quota/leased-claims';
import { QuotaReservations } from './quota/quota-reservations';
import { ReadModelsService, type ReadModels } from './read-models/read-models.service';
import { ChannelRouter } from './routing';
import { countPromptTokens, countTextTokens } from './token-counting';
import { ChannelKeys } from './upstream/channel-keys';
import { UpstreamClient } from './upstream/upstream-client';
import type { Caller } from './access/caller-access';
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
  isCaughtUp(): boolean;
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
 * Builds the relay's hot path from its infrastructure: key index, router, pools, metering. Routes are
 * registered on Fastify before this exists (Nest opens modules later), so they ask for it per call.
 */
@Injectable()
export class RelayRuntime implements OnModuleInit, OnModuleDestroy {
  private hotPath?: HotPath;
  private tester?: ChannelTester;
  private lister?: ChannelModelsLister;
  private settings?: SettingsTable;
  private usageSink?: RetryingUsageSink;
  private readonly closers: (() => Promise<void> | void)[] = [];

  constructor(
    private readonly readModels: ReadModelsService,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly metricsService: MetricsService,
    @InjectLogger() private readonly logger: Logger,
    @InjectServiceConfig() private readonly config: RelayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const [models, settings] = await Promise.all([this.readModels.open(), SettingsTable.open(this.bus)]);
    this.settings = settings;
    this.closers.push(() => settings.stop());
    const masterKey = parseMasterKey(this.config.TOLLGATE_ENCRYPTION_KEY);
    const upstream = new UpstreamClient({
      connectionsPerOrigin: this.config.RELAY_UPSTREAM_CONNECTIONS,
      headersTimeoutMs: this.config.RELAY_UPSTREAM_HEADERS_TIMEOUT_MS,
    });
    const keys = new ChannelKeys(masterKey);
    this.tester = new ChannelTester(upstream, keys);
    this.lister = new ChannelModelsLister(keys);
    this.hotPath = this.build(models, masterKey, upstream, keys);
    this.closers.push(() => upstream.close());
    // Usage that relays which are gone left in the spool; published as the broker allows, not awaited.
    await this.usageSink?.start();
  }

  /** The hot path, or undefined until the read models are open. */
  current(): HotPath | undefined {
    return this.hotPath;
  }

  channelTester(): ChannelTester {
    if (this.tester === undefined) throw new Error('relay is not started yet');
    return this.tester;
  }

  channelModelsLister(): ChannelModelsLister {
    if (this.lister === undefined) throw new Error('relay is not started yet');
    return this.lister;
  }

  async onModuleDestroy(): Promise<void> {
    for (const close of this.closers.reverse()) await close();
  }

  private build(models: ReadModels, masterKey: Buffer, upstream: UpstreamClient, keys: ChannelKeys): HotPath {
    const { config, logger } = this;
    const metrics = new RelayMetrics(this.metricsService);
    const keyIndex = new KeyIndex(models.tokens);
    this.closers.push(() => keyIndex.close());
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
    this.closers.push(() => router.dispose());
    const prices = new PriceBook(models.prices);
    const now = () => performance.now();
    const reservations = new QuotaReservations(this.claims(config.RELAY_QUOTA_HOLD_MS), {
      quotaOf: (userId) => models.balances.get(String(userId))?.quota,
    });
    this.closers.push(() => reservations.close());
    const groupRateLimits = this.groupRateLimits();
    const limiter = new RateLimiter(
      {
        requests: this.claims(RATE_LIMIT_WINDOW_MS),
        tokens: this.claims(RATE_LIMIT_WINDOW_MS),
        concurrency: this.claims(0),
      },
      groupRateLimits,
    );
    this.closers.push(() => limiter.close());
    // A call served while the broker is away is still charged: its event is held, spooled to disk and
    // published later, by this relay or the next one to start with the same spool directory.
    // Embedded mode gets the same sink: its in-process bus appends to a log on this machine's disk, so
    // no broker can be away and a publish fails only when that disk or the bus itself does, which a
    // spool beside it would not survive either; the spool, touched only after a failed publish, stays
    // empty there at no cost, and one path serves both modes.
    const usageSink = new RetryingUsageSink({
      publish: (events) =>
        this.bus.publish(
          events.map((event) => ({
            topic: TOPICS.usageRecorded.name,
            key: String(event.user_id),
            value: event,
          })),
        ),
      logger,
      spool: new UsageSpool({ directory: config.RELAY_USAGE_SPOOL_DIR, logger }),
    });
    this.usageSink = usageSink;
    this.closers.push(() => usageSink.close());
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
      costTerms: (user) =>
        costTerms(user.default_currency ?? config.TOLLGATE_DEFAULT_CURRENCY, prices.rubPerUsd()),
    });
    const dispatcher = new UpstreamDispatcher(router, upstream, keys, metrics, logger, now);
    const tokens = { countPromptTokens, countTextTokens };
    const shared = { access, prices, metering, dispatcher, metrics, tokens, now };
    return {
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
      }),
      models: (caller) => modelsForCaller({ channels: models.channels, prices: models.prices }, caller),
      isCaughtUp: () => this.readModels.isCaughtUp() && this.settings?.isCaughtUp() === true,
    };
  }

  /**
   * Claims on shared-store accounts (a balance, a key's quota, a rate limit), leased when
   * RELAY_QUOTA_LEASE_MS is set; what a claim cost keeps counting for `holdMs` once it ends.
   */
  private claims(holdMs: number): AccountClaims {
    const { config } = this;
    const policy = { reservationTtlMs: config.RELAY_RESERVATION_TTL_MS, holdMs };
    if (config.RELAY_QUOTA_LEASE_MS === 0) return new PerCallClaims(this.kv, policy);
    return new LeasedClaims(
      this.kv,
      { ...policy, leaseMs: config.RELAY_QUOTA_LEASE_MS, callsPerLease: config.RELAY_QUOTA_LEASE_CALLS },
      this.logger,
    );
  }

  /** GroupRateLimits as operators last set it, parsed once per change. */
  private groupRateLimits(): () => GroupRateLimits {
    let text: string | undefined;
    let parsed: GroupRateLimits = {};
    return () => {
      const current = this.settings?.get(SETTING_KEYS.groupRateLimits);
      if (current !== text) {
        text = current;
        parsed = parseGroupRateLimits(current);
      }
      return parsed;
    };
  }

  /** For refusals before a call reaches the pipeline (bad key, bad body). */
  refused(protocol: ApiProtocol, outcome: string): void {
    this.metricsService
      .counter('relayRequests')
      .inc({ protocol, model: 'unknown', provider: 'none', outcome });
  }
}
