import type { BillingPrice, PriceSnapshot, TokenUsage, UsageRecorded } from '@tollgate/contracts';
import { aUsageRecorded } from './usage-recorded';

type ModelPrice = Extract<BillingPrice, { kind: 'model' }>;

/**
 * Claude Sonnet 4.5's list prices as billing publishes them on billing.price, cache-write prices
 * included ($ per 1M tokens): input 3, output 15, cache reads 0.3, 5-minute writes 3.75 (1.25×
 * input) and 1-hour writes 6 (2× input); a 200 000-token context window.
 */
export function aPriceWithCacheWrites(overrides: Partial<ModelPrice> = {}): ModelPrice {
  return {
    v: 1,
    kind: 'model',
    model: 'claude-sonnet-4-5',
    provider: 'anthropic',
    input_price: '3',
    output_price: '15',
    cached_input_price: '0.3',
    cache_write_price: '3.75',
    cache_write_1h_price: '6',
    context_window: 200_000,
    updated_at: 1_700_000_000,
    ...overrides,
  };
}

/** The same prices as a call in a group of ratio 1 is charged them and usage.recorded carries them. */
export function aPriceSnapshotWithCacheWrites(overrides: Partial<PriceSnapshot> = {}): PriceSnapshot {
  return {
    input: '3',
    output: '15',
    cached_input: '0.3',
    group_ratio: '1',
    cache_write: '3.75',
    cache_write_1h: '6',
    ...overrides,
  };
}

/**
 * A call's tokens that read and wrote the prompt cache: 10 000 prompt tokens, 2000 of them read from
 * the cache and 7000 written to it (3000 of those for an hour), and 500 completion tokens. At
 * aPriceSnapshotWithCacheWrites they cost 1000 × 3 + 2000 × 0.3 + 4000 × 3.75 + 3000 × 6 + 500 × 15
 * = 44 100 µ$: 22 050 quota units.
 */
export function aUsageWithCacheWrites(): Required<TokenUsage> {
  return {
    prompt_tokens: 10_000,
    completion_tokens: 500,
    cached_tokens: 2000,
    cache_write_tokens: 7000,
    cache_write_1h_tokens: 3000,
  };
}

/** usage.recorded of a call on claude-sonnet-4-5 that wrote the cache: aUsageWithCacheWrites charged 22 050. */
export function aUsageRecordedWithCacheWrites(overrides: Partial<UsageRecorded> = {}): UsageRecorded {
  return aUsageRecorded({
    model: 'claude-sonnet-4-5',
    upstream_model: 'claude-sonnet-4-5',
    ...aUsageWithCacheWrites(),
    quota: 22_050,
    price: aPriceSnapshotWithCacheWrites(),
    ...overrides,
  });
}
