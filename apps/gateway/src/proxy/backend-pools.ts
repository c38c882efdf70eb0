import { Pool } from 'undici';
import type { BackendService } from '@tollgate/contracts';

export interface BackendPoolOptions {
  /** Base URL per backend service, e.g. http://127.0.0.1:3001. */
  urls: Record<BackendService, string>;
  connectionsPerBackend: number;
  /** How long each backend may take to begin its answer (0: no limit). */
  headersTimeoutMs: Record<BackendService, number>;
}

/**
 * One keep-alive connection pool per backend service. The body timeout is off: a long stream is
 * normal here, and the client's own disconnect is what ends it. The headers timeout frees a call
 * held by a frozen backend (its connection stays open, so nothing else would).
 */
export class BackendPools {
  private readonly pools = new Map<BackendService, Pool>();

  constructor(options: BackendPoolOptions) {
    for (const [service, url] of Object.entries(options.urls) as [BackendService, string][]) {
      this.pools.set(
        service,
        new Pool(url, {
          connections: options.connectionsPerBackend,
          pipelining: 1,
          keepAliveTimeout: 30_000,
          keepAliveMaxTimeout: 600_000,
          headersTimeout: options.headersTimeoutMs[service],
          bodyTimeout: 0,
        }),
      );
    }
  }

  get(service: BackendService): Pool {
    const pool = this.pools.get(service);
    if (!pool) throw new Error(`no backend pool for ${service}`);
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
