import {
  Role,
  TokenStatus,
  UserStatus,
  type BillingPrice,
  type CatalogChannel,
  type IdentityToken,
  type IdentityUser,
} from '@tollgate/contracts';
import type { CallContext } from '../../src/pipeline/call-context';

/** An enabled, unlimited, never-expiring key of user 7 in the default group, with any field overridden. */
export function aToken(overrides: Partial<IdentityToken> = {}): IdentityToken {
  return {
    v: 1,
    id: 1,
    user_id: 7,
    name: 'test key',
    key_hash: '0'.repeat(64),
    status: TokenStatus.Enabled,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: true,
    model_limits_enabled: false,
    model_limits: [],
    allow_ips: [],
    group: '',
    rpm_limit: 0,
    tpm_limit: 0,
    concurrency_limit: 0,
    used_quota: 0,
    model_aliases: {},
    updated_at: 1_700_000_000,
    ...overrides,
  };
}

/** An enabled OpenAI channel (type 1) of the default group serving gpt-4o-mini, with any field overridden. */
export function aChannel(overrides: Partial<CatalogChannel> = {}): CatalogChannel {
  return {
    v: 1,
    id: 1,
    type: 1,
    name: 'test channel',
    key_encrypted: '',
    base_url: '',
    models: ['gpt-4o-mini'],
    model_mapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    tag: '',
    status: 1,
    auto_ban: false,
    test_model: '',
    max_concurrency: 0,
    updated_at: 1_700_000_000,
    ...overrides,
  };
}

/** A catalogue price (USD per 1M tokens) for a model. */
export function aModelPrice(
  model: string,
  prices: { input?: string; output?: string; cached?: string; contextWindow?: number } = {},
): BillingPrice {
  return {
    v: 1,
    kind: 'model',
    model,
    provider: 'openai',
    input_price: prices.input ?? '0.15',
    output_price: prices.output ?? '0.6',
    cached_input_price: prices.cached ?? '0.075',
    context_window: prices.contextWindow ?? 128_000,
    updated_at: 1_700_000_000,
  };
}

/** An enabled ordinary user of the default group. */
export function aUser(id = 7, overrides: Partial<IdentityUser> = {}): IdentityUser {
  return {
    v: 1,
    id,
    username: `user_${id}`,
    display_name: `User ${id}`,
    role: Role.User,
    status: UserStatus.Enabled,
    group: 'default',
    inviter_id: null,
    created_at: 1_700_000_000,
    updated_at: 1_700_000_000,
    ...overrides,
  };
}

/** A call on the OpenAI protocol through key 3 of user 7 in the default group, request req-1. */
export function aCallContext(overrides: Partial<CallContext> = {}): CallContext {
  return {
    requestId: 'req-1',
    correlationId: 'req-1',
    protocol: 'openai',
    caller: { token: aToken({ id: 3 }), user: aUser(7), group: 'default' },
    startedAt: 0,
    ...overrides,
  };
}
