import { Pool, type Dispatcher } from 'undici';
import type { UpstreamHttpRequest, UpstreamUploadRequest } from '../providers';

export interface UpstreamClientOptions {
  /** Connections kept per upstream origin. */
  connectionsPerOrigin: number;
  /** Longest wait for the upstream's status line and headers (a model may think a while). */
  headersTimeoutMs: number;
}

export type UpstreamResponse = Dispatcher.ResponseData;

/** The upstream could not be reached or did not answer in time: nothing was received. */
export class UpstreamConnectError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'UpstreamConnectError';
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Outbound HTTP to providers: one keep-alive undici Pool per origin, created on first use. Bodies are
 * never timed out (a stream may run for minutes); the caller's signal aborts a call.
 */
export class UpstreamClient {
  private readonly pools = new Map<string, Pool>();

  constructor(private readonly options: UpstreamClientOptions) {}

  /** Throws UpstreamConnectError when no answer arrived, or the signal's reason when it was aborted. */
  async send(
    request: UpstreamHttpRequest | UpstreamUploadRequest,
    signal: AbortSignal,
  ): Promise<UpstreamResponse> {
    const url = new URL(request.url);
    try {
      return await this.poolFor(url.origin).request({
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: request.headers,
        body: request.body,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      const code = (error as { code?: unknown }).code;
      throw new UpstreamConnectError(
        typeof code === 'string' ? code : (error as Error).name,
        typeof code === 'string' && TIMEOUT_CODES.has(code),
      );
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.options.connectionsPerOrigin,
        headersTimeout: this.options.headersTimeoutMs,
        bodyTimeout: 0,
        keepAliveTimeout: 30_000,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/** Reads at most `limit` bytes of an error body and discards the rest. */
export async function readLimited(body: Dispatcher.ResponseData['body'], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size < limit) {
      chunks.push(chunk);
      size += chunk.length;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}
