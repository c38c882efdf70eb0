import type { SessionIdentity } from '@tollgate/contracts';
import type { SessionLookup } from './auth-session-lookup';

/** Sessions remembered at once; beyond it the oldest entry goes. */
const MAX_ENTRIES = 10_000;

interface Cached {
  identity: SessionIdentity;
  expiresAt: number;
}

/**
 * Resolves session cookies through auth, remembering live sessions for a moment (at most a second
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

  async resolve(secret: string): Promise<SessionIdentity | null> {
    const cached = this.cache.get(secret);
    if (cached) {
      if (cached.expiresAt > this.now()) return cached.identity;
      this.cache.delete(secret);
    }
    let pending = this.pending.get(secret);
    if (!pending) {
      pending = this.lookupAndRemember(secret).finally(() => this.pending.delete(secret));
      this.pending.set(secret, pending);
    }
    return pending;
  }

  private async lookupAndRemember(secret: string): Promise<SessionIdentity | null> {
    const identity = await this.lookup(secret);
    if (identity && this.cacheMs > 0) {
      if (this.cache.size >= MAX_ENTRIES) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      this.cache.set(secret, { identity, expiresAt: this.now() + this.cacheMs });
    }
    return identity;
  }
}
