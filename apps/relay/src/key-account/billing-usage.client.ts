import {
  ErrorCode,
  GENERATION_CALL,
  generationResult,
  KEY_USAGE_CALL,
  keyUsageResult,
  servicePath,
  type GenerationResult,
  type KeyUsageResult,
  type ServiceCall,
} from '@tollgate/contracts';
import { SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
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
  private readonly keyUsageSigner: ServiceTokenSigner;
  private readonly generationSigner: ServiceTokenSigner;

  constructor(
    private readonly billingUrl: string,
    secret: string,
  ) {
    this.keyUsageSigner = new ServiceTokenSigner(secret, KEY_USAGE_CALL.audience);
    this.generationSigner = new ServiceTokenSigner(secret, GENERATION_CALL.audience);
  }

  async keyUsage(tokenId: number): Promise<KeyUsageResult> {
    const found = await this.get(KEY_USAGE_CALL, this.keyUsageSigner, { tokenId }, keyUsageResult);
    if (found === undefined) throw unavailable();
    return found;
  }

  /** Undefined when the user (or the key, with `tokenId`) has no call with this id. */
  generation(userId: number, id: string, tokenId: number | undefined): Promise<GenerationResult | undefined> {
    const query = tokenId === undefined ? '' : `?token_id=${tokenId}`;
    return this.get(GENERATION_CALL, this.generationSigner, { userId, id }, generationResult, query);
  }

  private async get<T>(
    call: ServiceCall,
    signer: ServiceTokenSigner,
    params: Record<string, string | number>,
    schema: z.ZodType<T>,
    query = '',
  ): Promise<T | undefined> {
    let response: Response;
    try {
      response = await fetch(new URL(servicePath(call, params) + query, this.billingUrl), {
        method: call.method,
        headers: { [SERVICE_TOKEN_HEADER]: await signer.token() },
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch {
      throw unavailable();
    }
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw unavailable();
    }
    const envelope = (await response.json()) as { data?: unknown };
    const parsed = schema.safeParse(envelope.data);
    if (!parsed.success) throw unavailable();
    return parsed.data;
  }
}
