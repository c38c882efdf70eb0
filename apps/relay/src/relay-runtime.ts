import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ApiProtocol } from '@tollgate/contracts';
import { EVENT_BUS, type EventBus } from '@tollgate/events';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectLogger, InjectServiceConfig, MetricsService, type Logger } from '@tollgate/platform';
import { SettingsTable } from '@tollgate/runtime';
import {
  composeRelay,
  type Closer,
  type HotPath,
  type RelayComposition,
  type RelayUpstream,
} from './composition';
import type { RelayConfig } from './config';
import { ReadModelsService } from './read-models/read-models.service';
import { RELAY_UPSTREAM } from './relay-upstream.providers';

/**
 * The relay's lifecycle: opens the read models and settings, has composition.ts build the hot path on
 * them, starts the usage sink, and closes it all on shutdown. Routes are registered on Fastify before
 * this exists (Nest opens modules later), so they ask for the hot path per call.
 */
@Injectable()
export class RelayRuntime implements OnModuleInit, OnModuleDestroy {
  private composition?: RelayComposition;
  private readonly closers: Closer[] = [];

  constructor(
    private readonly readModels: ReadModelsService,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly metricsService: MetricsService,
    @InjectLogger() private readonly logger: Logger,
    @InjectServiceConfig() private readonly config: RelayConfig,
    @Inject(RELAY_UPSTREAM) private readonly upstream: RelayUpstream,
  ) {}

  async onModuleInit(): Promise<void> {
    const [models, settings] = await Promise.all([this.readModels.open(), SettingsTable.open(this.bus)]);
    this.closers.push(() => settings.stop());
    this.composition = composeRelay({
      config: this.config,
      logger: this.logger,
      bus: this.bus,
      kv: this.kv,
      metricsService: this.metricsService,
      models,
      settings,
      upstream: this.upstream,
      readModelsCaughtUp: () => this.readModels.isCaughtUp(),
      closers: this.closers,
    });
    // Usage that relays which are gone left in the spool; published as the broker allows, not awaited.
    await this.composition.usageSink.start();
  }

  /** The hot path, or undefined until the read models are open. */
  current(): HotPath | undefined {
    return this.composition?.hotPath;
  }

  async onModuleDestroy(): Promise<void> {
    for (const close of this.closers.reverse()) await close();
  }

  /** For refusals before a call reaches the pipeline (bad key, bad body). */
  refused(protocol: ApiProtocol, outcome: string): void {
    this.metricsService
      .counter('relayRequests')
      .inc({ protocol, model: 'unknown', provider: 'none', outcome });
  }
}
