import type { SessionIdentity, SessionLookupRequest } from '@tollgate/contracts';
import type { SessionLookup } from './auth-session-lookup';

/** Sessions remembered at once; beyond it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

interface Cached {
  identity: SessionIdentity;
  expiresAt: number;
}

/** Cookies and access tokens never share a cache entry, even with the same text. */
const cacheKeyOf = (request: SessionLookupRequest): string =>
  'session' in request ? `s:${request.session}` : `t:${request.access_token}`;

/**
 * Resolves session cookies and personal access tokens through auth, remembering live sessions for a moment (at most a second
 * or two, so a logout takes effect within that) and sharing one look-up between concurrent
 * requests with the same cookie. Ended or unknown sessions are never remembered.
 */
export class SessionResolver {
  private readonly cache = new Map<string, Cached>();
  private readonly pending = new Map<string, Promise<SessionIdentity | null>>();

  constructor(
    private readonly lookup: SessionLookup,
    private readonly cacheMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async resolve(request: SessionLookupRequest): Promise<SessionIdentity | null> {
    const key = cacheKeyOf(request);
    const cached = this.cache.get(key);
    if (cached) {
      if (cached.expiresAt > this.now()) return cached.identity;
      this.cache.delete(key);
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.lookupAndRemember(key, request).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  private async lookupAndRemember(
    key: string,
    request: SessionLookupRequest,
  ): Promise<SessionIdentity | null> {
    const identity = await this.lookup(request);
    if (identity && this.cacheMs > 0) {
      if (this.cache.size >= MAX_ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(key, { identity, expiresAt: this.now() + this.cacheMs });
    }
    return identity;
  }
}
