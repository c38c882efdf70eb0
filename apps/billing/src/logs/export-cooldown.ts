import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, LOG_EXPORT_COOLDOWN_SECONDS } from '@tollgate/contracts';
import { KV_STORE, type KvStore } from '@tollgate/kv';
import type { Locale } from '@tollgate/platform';
import { localizedException } from '../i18n/messages';

/** One log export per caller every LOG_EXPORT_COOLDOWN_SECONDS, across every billing replica (kv). */
@Injectable()
export class ExportCooldown {
  constructor(@Inject(KV_STORE) private readonly kv: KvStore) {}

  /** Claims the caller's export slot, or answers 429 with Retry-After while the last one is recent. */
  async claim(callerId: number, locale: Locale): Promise<void> {
    const key = `billing:log-export:${callerId}`;
    if (await this.kv.setIfAbsent(key, '1', LOG_EXPORT_COOLDOWN_SECONDS * 1000)) return;
    const remainingMs = await this.kv.ttl(key);
    const retryAfter = Math.min(
      LOG_EXPORT_COOLDOWN_SECONDS,
      Math.max(1, Math.ceil((remainingMs > 0 ? remainingMs : 1000) / 1000)),
    );
    throw localizedException(
      ErrorCode.RateLimited,
      'log_export_too_soon',
      locale,
      { seconds: retryAfter },
      {
        headers: { 'Retry-After': String(retryAfter) },
      },
    );
  }
}
