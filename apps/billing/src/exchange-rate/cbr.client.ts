import { Injectable } from '@nestjs/common';
import { InjectServiceConfig } from '@tollgate/platform';
import type { BillingConfig } from '../config';
import { parseCbrDaily, type BankRate } from './cbr-daily.parser';

/** The encoding named in the XML declaration (the bank writes windows-1251), else UTF-8. */
function declaredEncoding(head: string): string {
  return /encoding="([\w-]+)"/i.exec(head)?.[1]?.toLowerCase() ?? 'utf-8';
}

/** Fetches the Central Bank's daily list and reads the dollar's rate from it. */
@Injectable()
export class CbrClient {
  constructor(@InjectServiceConfig() private readonly config: BillingConfig) {}

  async usdRate(): Promise<BankRate> {
    const response = await fetch(this.config.CBR_DAILY_URL, {
      signal: AbortSignal.timeout(this.config.CBR_TIMEOUT_MS),
      headers: { accept: 'application/xml' },
    });
    if (!response.ok) throw new Error(`the bank answered HTTP ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 100));
    return parseCbrDaily(new TextDecoder(declaredEncoding(head)).decode(bytes));
  }
}
