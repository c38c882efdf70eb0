import { CHANNEL_TYPES, chargeQuota, type CatalogChannel } from '@tollgate/contracts';
import { DEFAULT_FAKE_UPSTREAM_KEYS } from '@tollgate/testing';

/** The price `RelayWorld.price` publishes (group ratio 1), as a usage event carries it. */
export const PRICE = { input: '0.15', output: '0.6', cached_input: '0.075', group_ratio: '1' };

/** What a call with this usage is charged at `PRICE`, in quota units. */
export function costOf(usage: {
  prompt_tokens: number;
  completion_tokens?: number;
  cached_tokens?: number;
}): number {
  return chargeQuota(
    {
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens ?? 0,
      cached_tokens: usage.cached_tokens ?? 0,
    },
    PRICE,
  );
}

/** The key the fake upstream accepts from each channel family. */
const UPSTREAM_KEYS: Partial<Record<number, string>> = {
  [CHANNEL_TYPES.openai]: DEFAULT_FAKE_UPSTREAM_KEYS.openai,
  [CHANNEL_TYPES.azure]: DEFAULT_FAKE_UPSTREAM_KEYS.azure,
  [CHANNEL_TYPES.anthropic]: DEFAULT_FAKE_UPSTREAM_KEYS.anthropic,
  [CHANNEL_TYPES.gemini]: DEFAULT_FAKE_UPSTREAM_KEYS.gemini,
};

/**
 * A channel (OpenAI unless `type` says otherwise) serving `models` from the fake upstream at
 * `upstream.url` with the key it accepts (a `key` among `overrides` for one it refuses), for
 * `RelayWorld.channel`.
 */
export function aChannelOn(
  upstream: { url: string },
  models: string[],
  overrides: Partial<CatalogChannel> & { key?: string } = {},
): Partial<CatalogChannel> & { key: string } {
  const type = overrides.type ?? CHANNEL_TYPES.openai;
  return {
    key: UPSTREAM_KEYS[type] ?? DEFAULT_FAKE_UPSTREAM_KEYS.openai,
    base_url: upstream.url,
    models,
    ...overrides,
  };
}

/** An OpenAI chat completions body: one short user message, 16 tokens at most. */
export function aChatRequest(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, messages: [{ role: 'user', content: 'Hello there' }], max_tokens: 16, ...extra };
}
