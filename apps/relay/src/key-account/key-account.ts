import {
  effectiveKeyLimits,
  ErrorCode,
  limitsOfGroup,
  QUOTA_PER_USD,
  TOKEN_NEVER_EXPIRES,
  type GroupRateLimits,
  type IdentityToken,
  type IdentityUser,
} from '@tollgate/contracts';
import type { Caller } from '../access/caller-access';
import { RelayError } from '../errors/relay-error';
import { callCost, type CostTerms } from '../pricing/call-cost';
import type { BillingUsageClient } from './billing-usage.client';

export interface BalanceReader {
  /** The user's balance and what they have spent, as billing last published them. */
  balanceOf(userId: number): { quota: number; used_quota: number } | undefined;
}

interface KeyAccountDeps {
  balances: BalanceReader;
  usage: Pick<BillingUsageClient, 'keyUsage' | 'generation'>;
  groupRateLimits: () => GroupRateLimits;
  /** How the key's owner is told costs, as every answer tells them (usage.cost). */
  costTerms: (user: IdentityUser) => CostTerms;
}

const dollars = (quota: number): number => Number(callCost(quota).usd);

/** A key's own spending limit, or undefined for a key that spends its owner's balance without one. */
const limitedKey = (token: IdentityToken | null): IdentityToken | undefined =>
  token !== null && !token.unlimited_quota ? token : undefined;

/**
 * What a client may learn about its key and its calls with the key alone: GET /v1/key, the
 * balance-checker endpoints of OpenAI's legacy API as new-api answers them, and GET /v1/generation.
 */
export class KeyAccount {
  constructor(private readonly deps: KeyAccountDeps) {}

  /** GET /v1/key (as OpenRouter's key endpoint): limits, remaining quota, spending, rate limits. */
  async describe(caller: Caller & { token: IdentityToken }) {
    const { token } = caller;
    const balance = this.deps.balances.balanceOf(caller.user.id) ?? { quota: 0, used_quota: 0 };
    const spent = await this.deps.usage.keyUsage(token.id);
    const limited = limitedKey(token);
    const limits = effectiveKeyLimits(token, limitsOfGroup(this.deps.groupRateLimits(), caller.group));
    return {
      data: {
        name: token.name,
        group: caller.group,
        quota_per_usd: QUOTA_PER_USD,
        /** What the key may still spend: its own quota, or its owner's balance. */
        limit_remaining: limited === undefined ? null : limited.remain_quota,
        limit_remaining_usd: limited === undefined ? null : dollars(limited.remain_quota),
        balance: balance.quota,
        balance_usd: dollars(balance.quota),
        usage: token.used_quota,
        usage_usd: dollars(token.used_quota),
        usage_today: spent.today_quota,
        usage_today_usd: dollars(spent.today_quota),
        requests_today: spent.today_requests,
        usage_month: spent.month_quota,
        usage_month_usd: dollars(spent.month_quota),
        requests_month: spent.month_requests,
        expires_at: token.expired_time === TOKEN_NEVER_EXPIRES ? null : token.expired_time,
        rate_limits: {
          requests_per_minute: limits.rpm,
          tokens_per_minute: limits.tpm,
          concurrent_requests: limits.concurrency,
        },
      },
    };
  }

  /**
   * GET /v1/dashboard/billing/subscription: the total the key may spend in dollars (remaining plus
   * spent, as new-api reports it), so that a balance checker's `hard_limit_usd - total_usage / 100`
   * is what is left.
   */
  subscription(caller: Caller & { token: IdentityToken }) {
    const total = this.remaining(caller) + this.spent(caller);
    const amount = dollars(total);
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: caller.token.expired_time === TOKEN_NEVER_EXPIRES ? 0 : caller.token.expired_time,
    };
  }

  /** GET /v1/dashboard/billing/usage: what was spent, in cents (OpenAI's legacy unit). */
  usage(caller: Caller & { token: IdentityToken }) {
    return { object: 'list', total_usage: (this.spent(caller) * 100) / QUOTA_PER_USD };
  }

  /**
   * GET /v1/generation?id=: one of the key's own calls, never its text. Its cost is told as the
   * answer's `usage.cost` was, in the account's currency (at the rate published now), with the dollars
   * beside it. Its prompt tokens are told as they were charged: the cached reads, and the cache writes
   * for 5 minutes and for an hour (each at its own price), all parts of `tokens_prompt`.
   */
  async generation(caller: Caller & { token: IdentityToken }, id: string) {
    const found = await this.deps.usage.generation(caller.user.id, id, caller.token.id);
    if (found === undefined)
      throw new RelayError(ErrorCode.NotFound, `No call of this API key has the id ${id}`);
    const cost = callCost(found.quota, this.deps.costTerms(caller.user));
    return {
      data: {
        id: found.id,
        request_id: found.request_id,
        model: found.model,
        upstream_model: found.upstream_model,
        created_at: found.created_at,
        tokens_prompt: found.prompt_tokens,
        tokens_completion: found.completion_tokens,
        tokens_cached: found.cached_tokens,
        tokens_cache_write_5m: found.cache_write_5m_tokens ?? 0,
        tokens_cache_write_1h: found.cache_write_1h_tokens ?? 0,
        cost: Number(cost.amount),
        cost_currency: cost.currency,
        cost_usd: Number(cost.usd),
        cost_quota: found.quota,
        latency_ms: found.latency_ms,
        ttft_ms: found.ttft_ms,
        streamed: found.is_stream,
        status: found.status,
        finish_reason: found.finish_reason,
      },
    };
  }

  private remaining(caller: Caller & { token: IdentityToken }): number {
    const limited = limitedKey(caller.token);
    if (limited !== undefined) return limited.remain_quota;
    return Math.max(0, this.deps.balances.balanceOf(caller.user.id)?.quota ?? 0);
  }

  private spent(caller: Caller & { token: IdentityToken }): number {
    if (limitedKey(caller.token) !== undefined) return caller.token.used_quota;
    return this.deps.balances.balanceOf(caller.user.id)?.used_quota ?? 0;
  }
}
