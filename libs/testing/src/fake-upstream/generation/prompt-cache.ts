import { createHash } from 'node:crypto';

/** Anthropic caches nothing shorter than this many tokens (Sonnet and Opus; Haiku needs 2048). */
export const MIN_CACHEABLE_TOKENS = 1024;

const MAX_ENTRIES = 10_000;

/**
 * The prompt prefixes one fake server has cached, as Anthropic's prompt caching sees them: the first
 * call with a prefix writes it, later calls read it.
 */
export class PromptCache {
  private readonly prefixes = new Set<string>();

  /** Whether this prefix was a cache hit; it is cached from now on. */
  hit(prefixParts: readonly string[]): boolean {
    const key = createHash('sha256').update(prefixParts.join('\u0000')).digest('base64url');
    if (this.prefixes.has(key)) return true;
    if (this.prefixes.size >= MAX_ENTRIES) this.prefixes.clear();
    this.prefixes.add(key);
    return false;
  }
}
