import { countTokens } from 'gpt-tokenizer';

/** User text may contain strings like "<|endoftext|>"; they count as plain text, as providers bill them. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Prompt tokens of a request: the o200k token count of its text parts joined with "\n".
 * Exported so that tests can compute the usage they expect from the same rule.
 */
export function countPromptTokens(textParts: readonly string[]): number {
  const joined = textParts.join('\n');
  return joined.length === 0 ? 0 : countTokens(joined, PLAIN_TEXT);
}

/**
 * Benchmarks send the same body thousands of times, and tokenizing it each time would
 * dominate the fake's cost, so counts are kept per distinct prompt text (bounded, oldest first out).
 */
const MAX_CACHED_TEXT_LENGTH = 64 * 1024;

export class PromptTokenCounter {
  private readonly counts = new Map<string, number>();

  constructor(private readonly capacity = 1_000) {}

  count(textParts: readonly string[]): number {
    const key = textParts.length === 1 ? textParts[0]! : textParts.join('\n');
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    const counted = key.length === 0 ? 0 : countTokens(key, PLAIN_TEXT);
    if (key.length > MAX_CACHED_TEXT_LENGTH) return counted;
    if (this.counts.size >= this.capacity) {
      const oldest = this.counts.keys().next();
      if (oldest.done !== true) this.counts.delete(oldest.value);
    }
    this.counts.set(key, counted);
    return counted;
  }
}
