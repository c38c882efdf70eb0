import { Pool } from 'undici';
import type { BackendService } from '@tollgate/contracts';

export interface BackendPoolOptions {
  /** Base URL per backend service, e.g. http://127.0.0.1:3001. */
  urls: Record<BackendService, string>;
  connectionsPerBackend: number;
}

/**
 * One keep-alive connection pool per backend service. Body and headers timeouts are off: a
 * long stream is normal here, and the client's own disconnect is what ends a stuck call.
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
          headersTimeout: 0,
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
