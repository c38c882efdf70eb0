import {
  ErrorCode,
  GENERATION_CALL,
  generationResult,
  KEY_USAGE_CALL,
  keyUsageResult,
  type GenerationResult,
  type KeyUsageResult,
  type ServiceCall,
} from '@tollgate/contracts';
import { answerData, ServiceCaller, type ServiceCallOptions } from '@tollgate/platform';
import type { z } from 'zod';
import { RelayError } from '../errors/relay-error';

const CALL_TIMEOUT_MS = 5_000;

const unavailable = (): RelayError =>
  new RelayError(
    ErrorCode.ServiceUnavailable,
    'Usage records are unavailable right now; try again in a moment',
    1,
  );

/** Billing's usage records, asked for API clients (never on the chat path). */
export class BillingUsageClient {
  private readonly billing: ServiceCaller;

  constructor(billingUrl: string, secret: string) {
    this.billing = new ServiceCaller(billingUrl, secret);
  }

  async keyUsage(tokenId: number): Promise<KeyUsageResult> {
    const found = await this.get(KEY_USAGE_CALL, { params: { tokenId } }, keyUsageResult);
    if (found === undefined) throw unavailable();
    return found;
  }

  /** Undefined when the user (or the key, with `tokenId`) has no call with this id. */
  generation(userId: number, id: string, tokenId: number | undefined): Promise<GenerationResult | undefined> {
    return this.get(
      GENERATION_CALL,
      { params: { userId, id }, query: { token_id: tokenId } },
      generationResult,
    );
  }

  private async get<T>(
    call: ServiceCall,
    options: Omit<ServiceCallOptions, 'timeoutMs'>,
    schema: z.ZodType<T>,
  ): Promise<T | undefined> {
    let answer;
    try {
      answer = await this.billing.send(call, { ...options, timeoutMs: CALL_TIMEOUT_MS });
    } catch {
      throw unavailable();
    }
    if (answer.status === 404) return undefined;
    if (answer.status < 200 || answer.status > 299) throw unavailable();
    const found = answerData(schema, answer.body);
    if (found === undefined) throw unavailable();
    return found;
  }
}
