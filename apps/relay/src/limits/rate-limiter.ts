import {
  effectiveKeyLimits,
  ErrorCode,
  limitsOfGroup,
  RATE_LIMIT_WINDOW_MS,
  type GroupRateLimits,
  type RateLimits,
} from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import type { AccountClaim, AccountClaims, HoldListener } from '../quota/account-claims';
import { HoldLog } from './hold-log';
import { formatResetDuration, rateLimitHeaders, type DimensionState } from './rate-limit-headers';

export type LimitDimension = keyof RateLimits;
type Scope = 'key' | 'user';

/**
 * The stores each dimension is counted in: requests and tokens as claims held for the window after
 * the call (a sliding minute), concurrency as claims released when the call ends.
 */
export interface RateLimitClaims {
  requests: AccountClaims;
  tokens: AccountClaims;
  concurrency: AccountClaims;
}

const DIMENSION_WORDS: Record<LimitDimension, string> = {
  rpm: 'requests per minute (RPM)',
  tpm: 'tokens per minute (TPM)',
  concurrency: 'concurrent requests',
};

/** The header names of each limit OpenAI reports, by the dimension refused. */
const HEADER_KIND: Partial<Record<LimitDimension, string>> = { rpm: 'requests', tpm: 'tokens' };

export class RateLimitedError extends RelayError {
  /** OpenAI's trio for the limit that refused the call: none left, and the wait as its reset. */
  override readonly extraHeaders: Readonly<Record<string, string>>;

  constructor(
    readonly dimension: LimitDimension,
    readonly scope: Scope,
    limit: number,
    override readonly retryAfterMs: number,
  ) {
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(
      ErrorCode.RateLimited,
      `Rate limit reached on ${DIMENSION_WORDS[dimension]} for this ${scope === 'key' ? 'API key' : 'account'}: ` +
        `limit ${limit}. Please try again in ${retryAfterSeconds}s.`,
      retryAfterSeconds,
    );
    const kind = HEADER_KIND[dimension];
    this.extraHeaders =
      kind === undefined
        ? {}
        : {
            [`x-ratelimit-limit-${kind}`]: String(limit),
            [`x-ratelimit-remaining-${kind}`]: '0',
            [`x-ratelimit-reset-${kind}`]: formatResetDuration(retryAfterMs),
          };
  }
}

/** A monotonic clock in milliseconds. */
type Clock = () => number;

interface Taken {
  dimension: LimitDimension;
  limit: number;
  claim: AccountClaim;
}

/** A call let through the rate limits: it ends once, finished (with its real tokens) or abandoned. */
export interface AdmittedCall {
  /** OpenAI's x-ratelimit-* headers for the tightest limit of each kind; none when nothing limits the call. */
  readonly headers: Readonly<Record<string, string>>;
  finish(actualTokens: number): Promise<void>;
  /** Nothing was served: the request still counts, its reserved tokens and its slot are given back. */
  abandon(): Promise<void>;
}

/** A call nothing limits: no headers, nothing to give back. */
export const UNLIMITED: AdmittedCall = Object.freeze({
  headers: Object.freeze({}),
  finish: async () => undefined,
  abandon: async () => undefined,
});

class LimitedCall implements AdmittedCall {
  private ended = false;
  readonly headers: Readonly<Record<string, string>>;

  constructor(private readonly taken: readonly Taken[]) {
    this.headers = rateLimitHeaders(tightest(taken, 'rpm'), tightest(taken, 'tpm'));
  }

  finish(actualTokens: number): Promise<void> {
    return this.end(actualTokens);
  }

  abandon(): Promise<void> {
    return this.end(0);
  }

  private async end(tokens: number): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await Promise.all(
      this.taken.map(({ dimension, claim }) => {
        if (dimension === 'rpm') return claim.settle(1);
        if (dimension === 'tpm') return claim.settle(tokens);
        return claim.release();
      }),
    );
  }
}

function tightest(taken: readonly Taken[], dimension: LimitDimension): DimensionState | undefined {
  let best: DimensionState | undefined;
  for (const entry of taken) {
    if (entry.dimension !== dimension) continue;
    if (best === undefined || entry.claim.remaining < best.remaining)
      best = { limit: entry.limit, remaining: entry.claim.remaining };
  }
  return best;
}

/** Without this replica's holds to go by: the share of the window that frees what the call asked for. */
function evenShareOfWindowMs(amount: number, limit: number): number {
  return (RATE_LIMIT_WINDOW_MS * amount) / limit;
}

/**
 * Requests per minute, tokens per minute and requests in flight, for the user (all their keys and
 * chats together, at their group's limits) and for the key (its own limits within the group's).
 * Each limited dimension is a claim on a shared-store account, taken the way quota is (leases, so
 * most calls make no store round trip); a call nothing limits touches no store at all.
 */
export class RateLimiter {
  /** When this replica's holds of requests and tokens free, from the moment the store took each. */
  private readonly holds = new HoldLog();

  constructor(
    private readonly claims: RateLimitClaims,
    private readonly groups: () => GroupRateLimits,
    private readonly now: Clock = () => performance.now(),
  ) {
    const remember: HoldListener = (account, amount, holdMs) => {
      const at = this.now();
      this.holds.add(account, amount, at + holdMs, at);
    };
    claims.requests.onHold(remember);
    claims.tokens.onHold(remember);
  }

  /**
   * `tokens`: what the call may use at most (prompt bound and output limit); a call asking more than
   * a tokens-per-minute limit reserves the whole limit, so it is never refused for its size alone.
   * Throws RateLimitedError (429) when a limit is reached; nothing is left claimed then.
   */
  admit(caller: Caller, callId: string, tokens: number): AdmittedCall | Promise<AdmittedCall> {
    const group = limitsOfGroup(this.groups(), caller.group);
    const token = caller.token;
    // The common case on the hot path: no limit anywhere, so no store, and no promise for the caller to
    // await (an async function's promise and frame were ~0.5 KB of every call's garbage).
    if (
      group.rpm + group.tpm + group.concurrency === 0 &&
      (token === null || token.rpm_limit + token.tpm_limit + token.concurrency_limit === 0)
    )
      return UNLIMITED;
    return this.claimLimits(caller, callId, tokens, group);
  }

  private async claimLimits(
    caller: Caller,
    callId: string,
    tokens: number,
    group: RateLimits,
  ): Promise<AdmittedCall> {
    const scopes: [Scope, number, RateLimits][] = [['user', caller.user.id, group]];
    if (caller.token !== null) scopes.push(['key', caller.token.id, effectiveKeyLimits(caller.token, group)]);
    const wanted: {
      scope: Scope;
      dimension: LimitDimension;
      limit: number;
      amount: number;
      account: string;
    }[] = [];
    for (const [scope, id, limits] of scopes) {
      for (const dimension of ['rpm', 'tpm', 'concurrency'] as const) {
        const limit = limits[dimension];
        if (limit <= 0) continue;
        const amount = dimension === 'tpm' ? Math.min(Math.max(tokens, 1), limit) : 1;
        wanted.push({ scope, dimension, limit, amount, account: `limit:${dimension}:${scope}:${id}` });
      }
    }
    if (wanted.length === 0) return UNLIMITED;
    const results = await Promise.allSettled(
      wanted.map((w) => this.storeOf(w.dimension).claim(w.account, callId, w.amount, w.limit)),
    );
    const taken: Taken[] = [];
    let refused: (typeof wanted)[number] | undefined;
    let failure: unknown;
    results.forEach((result, index) => {
      const w = wanted[index]!;
      if (result.status === 'rejected') failure ??= result.reason;
      else if (result.value === undefined) refused ??= w;
      else taken.push({ dimension: w.dimension, limit: w.limit, claim: result.value });
    });
    if (refused === undefined && failure === undefined) return new LimitedCall(taken);
    // The claims that did succeed are given back: a refused call counts against nothing.
    await Promise.all(taken.map(({ claim }) => claim.release()));
    if (refused === undefined) throw failure;
    throw new RateLimitedError(
      refused.dimension,
      refused.scope,
      refused.limit,
      this.retryAfterMs(refused.dimension, refused.account, refused.amount, refused.limit),
    );
  }

  /**
   * How long a refused call should wait: until the holds this replica started in the store free what
   * it asked for (after a burst, when the burst's first hold is a window old), or, when this replica
   * holds less than that (calls still running, other replicas' calls), the share of the window that
   * frees it.
   */
  private retryAfterMs(dimension: LimitDimension, account: string, amount: number, limit: number): number {
    if (dimension === 'concurrency') return 1000;
    return this.holds.msUntilFreed(account, amount, this.now()) ?? evenShareOfWindowMs(amount, limit);
  }

  async close(): Promise<void> {
    await Promise.all([
      this.claims.requests.close(),
      this.claims.tokens.close(),
      this.claims.concurrency.close(),
    ]);
  }

  private storeOf(dimension: LimitDimension): AccountClaims {
    if (dimension === 'rpm') return this.claims.requests;
    if (dimension === 'tpm') return this.claims.tokens;
    return this.claims.concurrency;
  }
}
