import { Injectable } from '@nestjs/common';
import { GENERATION_CALL, generationResult, type GenerationResult } from '@tollgate/contracts';
import { answerData, InjectServiceConfig, ServiceCaller } from '@tollgate/platform';
import type { ChatConfig } from '../config';

/** A list of messages waits for billing at most this long; the answer's cost is filled in on a later read. */
const LOOKUP_TIMEOUT_MS = 1_500;

/** Billing answered neither with the call nor with "no such call" (unreachable, too slow, an error). */
export class BillingUnavailable extends Error {
  constructor(reason: string) {
    super(`billing's usage records are unavailable: ${reason}`);
    this.name = 'BillingUnavailable';
  }
}

/** Billing's record of one call of a user (GENERATION_CALL), by the request id the chat gave relay. */
@Injectable()
export class BillingGenerationClient {
  private readonly billing: ServiceCaller;

  constructor(@InjectServiceConfig() config: ChatConfig) {
    this.billing = new ServiceCaller(config.BILLING_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET);
  }

  /** Undefined when billing has no such call of this user (yet: its usage event may be on the way). */
  async generation(userId: number, requestId: string): Promise<GenerationResult | undefined> {
    let answer;
    try {
      answer = await this.billing.send(GENERATION_CALL, {
        params: { userId, id: requestId },
        timeoutMs: LOOKUP_TIMEOUT_MS,
      });
    } catch (error) {
      throw new BillingUnavailable(error instanceof Error ? error.name : 'no answer');
    }
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw new BillingUnavailable(`status ${answer.status}`);
    const found = answerData(generationResult, answer.body);
    if (!found) throw new BillingUnavailable('unexpected answer');
    return found;
  }
}
