import { createHmac } from 'node:crypto';
import { TOKEN_KEY_HASH_PURPOSE, type IdentityToken } from '@tollgate/contracts';
import type { CompactedTable } from '@tollgate/events';
import { deriveKey } from '@tollgate/platform';
import { LRUCache } from 'lru-cache';

/** Keys seen lately, by how many a replica remembers; longer strings are not real keys and never cached. */
const RECENT_KEYS = 10_000;
const MAX_CACHED_KEY_CHARS = 256;

/**
 * HMAC-SHA256 of an API key under the lookup key auth derives from the same master key. The hash is
 * a pure function of the key, so the recent ones are remembered: a busy client's key is hashed once,
 * not on every call. Whether the key still works is always decided by the live KeyIndex.
 */
export class ApiKeyHasher {
  private readonly hmacKey: Buffer;
  private readonly recent = new LRUCache<string, string>({ max: RECENT_KEYS });

  constructor(masterKey: Buffer) {
    this.hmacKey = deriveKey(masterKey, TOKEN_KEY_HASH_PURPOSE);
  }

  hash(apiKey: string): string {
    const known = this.recent.get(apiKey);
    if (known !== undefined) return known;
    const hash = createHmac('sha256', this.hmacKey).update(apiKey, 'utf8').digest('hex');
    if (apiKey.length <= MAX_CACHED_KEY_CHARS) this.recent.set(apiKey, hash);
    return hash;
  }
}

/**
 * API keys by the hash of the key, kept current by the identity.token table: one map look-up per
 * request. A tombstone or a changed hash removes the old entry at once, so a deleted key stops working
 * as soon as the change reaches this replica.
 */
export class KeyIndex {
  private readonly byHash = new Map<string, IdentityToken>();
  private readonly hashById = new Map<string, string>();
  private readonly unsubscribe: () => void;

  constructor(tokens: CompactedTable<IdentityToken>) {
    this.unsubscribe = tokens.onChange((key, token) => this.apply(key, token));
    for (const [key, token] of tokens.entries()) this.apply(key, token);
  }

  find(keyHash: string): IdentityToken | undefined {
    return this.byHash.get(keyHash);
  }

  get size(): number {
    return this.byHash.size;
  }

  close(): void {
    this.unsubscribe();
  }

  private apply(key: string, token: IdentityToken | undefined): void {
    const previous = this.hashById.get(key);
    if (previous !== undefined) {
      this.byHash.delete(previous);
      this.hashById.delete(key);
    }
    if (token === undefined) return;
    this.byHash.set(token.key_hash, token);
    this.hashById.set(key, token.key_hash);
  }
}
