import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import { InjectServiceConfig, type Locale } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { localizedException } from '../i18n/messages';

const WINDOW_MS = 60_000;

/**
 * Promo codes are words an administrator chose, so they can be guessed: each user gets
 * PROMO_TRIES_PER_MINUTE unusable codes a minute, across validation and payments and every billing
 * replica (kv). A try is counted before the code is looked up, so a burst sent at once is held to
 * the same number; a code that turns out usable gives its try back.
 */
@Injectable()
export class PromoGuessLimit {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    @InjectServiceConfig() private readonly config: BillingConfig,
  ) {}

  /** Runs `lookup` as one of the user's tries; a thrown error or an unusable result keeps it counted. */
  async attempt<T>(
    userId: number,
    locale: Locale,
    lookup: () => Promise<T>,
    usable: (result: T) => boolean = () => true,
  ): Promise<T> {
    const key = `billing:promo-tries:${userId}`;
    const tries = await this.kv.incr(key, WINDOW_MS);
    if (tries > this.config.PROMO_TRIES_PER_MINUTE) {
      const remainingMs = await this.kv.ttl(key);
      const retryAfter = Math.max(1, Math.ceil((remainingMs > 0 ? remainingMs : WINDOW_MS) / 1000));
      throw localizedException(
        ErrorCode.RateLimited,
        'promo_too_many_tries',
        locale,
        { seconds: retryAfter },
        {
          headers: { 'Retry-After': String(retryAfter) },
        },
      );
    }
    const result = await lookup();
    if (usable(result)) await this.kv.incr(key, WINDOW_MS, -1);
    return result;
  }
}
