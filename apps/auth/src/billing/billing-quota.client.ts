import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ACCOUNT_SET_QUOTA_CALL,
  accountSetQuotaResult,
  type AccountSetQuotaResult,
} from '@tollgate/contracts';
import { answerData, InjectServiceConfig, ServiceCaller } from '@tollgate/platform';
import type { AuthConfig } from '../config';

const CALL_TIMEOUT_MS = 5_000;
/** Tries per change; every try carries the same idempotency key, so billing applies it once. */
const ATTEMPTS = 3;

export class BillingUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BillingUnavailableError';
  }
}

/** Billing's internal "set this user's balance" call (one ledger adjustment of the difference). */
@Injectable()
export class BillingQuotaClient {
  private readonly billing: ServiceCaller;

  constructor(@InjectServiceConfig() config: AuthConfig) {
    this.billing = new ServiceCaller(config.BILLING_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET);
  }

  async setQuota(
    userId: number,
    quota: number,
    actor: { userId: number; role: number },
    reason?: string,
  ): Promise<AccountSetQuotaResult> {
    const body = {
      quota,
      idempotency_key: `auth:user-admin:${randomUUID()}`,
      actor_id: actor.userId,
      actor_role: actor.role,
      reason: reason || 'set by an admin',
    };
    let lastError: unknown;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        const answer = await this.billing.send(ACCOUNT_SET_QUOTA_CALL, {
          params: { userId },
          body,
          timeoutMs: CALL_TIMEOUT_MS,
        });
        const result = answer.status === 200 ? answerData(accountSetQuotaResult, answer.body) : undefined;
        if (result) return result;
        lastError = new BillingUnavailableError(`billing answered ${answer.status}`);
        // Only a failure on billing's side may pass on a retry.
        if (answer.status < 500) break;
      } catch (error) {
        lastError = error;
      }
    }
    throw new BillingUnavailableError('billing did not set the balance', { cause: lastError });
  }
}
