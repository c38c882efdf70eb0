import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  ACCOUNT_SET_QUOTA_CALL,
  accountSetQuotaResult,
  envelopeSchema,
  servicePath,
  type AccountSetQuotaResult,
} from '@tollgate/contracts';
import { InjectServiceConfig, SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
import { request } from 'undici';
import type { AuthConfig } from '../config';

const CALL_TIMEOUT_MS = 5_000;
/** Tries per change; every try carries the same idempotency key, so billing applies it once. */
const ATTEMPTS = 3;
const answerSchema = envelopeSchema(accountSetQuotaResult);

export class BillingUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BillingUnavailableError';
  }
}

/** Billing's internal "set this user's balance" call (one ledger adjustment of the difference). */
@Injectable()
export class BillingQuotaClient {
  private readonly signer: ServiceTokenSigner;

  constructor(@InjectServiceConfig() private readonly config: AuthConfig) {
    this.signer = new ServiceTokenSigner(
      config.TOLLGATE_INTERNAL_TOKEN_SECRET,
      ACCOUNT_SET_QUOTA_CALL.audience,
    );
  }

  async setQuota(
    userId: number,
    quota: number,
    actor: { userId: number; role: number },
    reason?: string,
  ): Promise<AccountSetQuotaResult> {
    const body = JSON.stringify({
      quota,
      idempotency_key: `auth:user-admin:${randomUUID()}`,
      actor_id: actor.userId,
      actor_role: actor.role,
      reason: reason || 'set by an admin',
    });
    const url = new URL(servicePath(ACCOUNT_SET_QUOTA_CALL, { userId }), this.config.BILLING_URL);
    let lastError: unknown;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        const response = await request(url, {
          method: ACCOUNT_SET_QUOTA_CALL.method,
          headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: await this.signer.token() },
          body,
          signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
        });
        const answer = answerSchema.safeParse(await response.body.json().catch(() => null));
        if (response.statusCode === 200 && answer.success && answer.data.data) return answer.data.data;
        lastError = new BillingUnavailableError(`billing answered ${response.statusCode}`);
        // Only a failure on billing's side may pass on a retry.
        if (response.statusCode < 500) break;
      } catch (error) {
        lastError = error;
      }
    }
    throw new BillingUnavailableError('billing did not set the balance', { cause: lastError });
  }
}
