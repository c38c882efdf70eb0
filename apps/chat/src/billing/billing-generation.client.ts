import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { GENERATION_CALL, generationResult, servicePath, type GenerationResult } from '@tollgate/contracts';
import { InjectServiceConfig, SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
import { Agent, request } from 'undici';
import { z } from 'zod';
import type { ChatConfig } from '../config';

/** A list of messages waits for billing at most this long; the answer's cost is filled in on a later read. */
const LOOKUP_TIMEOUT_MS = 1_500;

const generationEnvelope = z.object({ data: generationResult });

/** Billing answered neither with the call nor with "no such call" (unreachable, too slow, an error). */
export class BillingUnavailable extends Error {
  constructor(reason: string) {
    super(`billing's usage records are unavailable: ${reason}`);
    this.name = 'BillingUnavailable';
  }
}

/** Billing's record of one call of a user (GENERATION_CALL), by the request id the chat gave relay. */
@Injectable()
export class BillingGenerationClient implements OnModuleDestroy {
  private readonly signer: ServiceTokenSigner;
  private readonly agent = new Agent({ keepAliveTimeout: 30_000 });
  private readonly base: string;

  constructor(@InjectServiceConfig() config: ChatConfig) {
    this.signer = new ServiceTokenSigner(config.TOLLGATE_INTERNAL_TOKEN_SECRET, GENERATION_CALL.audience);
    this.base = config.BILLING_URL;
  }

  /** Undefined when billing has no such call of this user (yet: its usage event may be on the way). */
  async generation(userId: number, requestId: string): Promise<GenerationResult | undefined> {
    let res;
    try {
      res = await request(new URL(servicePath(GENERATION_CALL, { userId, id: requestId }), this.base), {
        method: GENERATION_CALL.method,
        headers: { [SERVICE_TOKEN_HEADER]: await this.signer.token() },
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
        dispatcher: this.agent,
      });
    } catch (error) {
      throw new BillingUnavailable(error instanceof Error ? error.name : 'no answer');
    }
    if (res.statusCode === 404) {
      await res.body.dump();
      return undefined;
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new BillingUnavailable(`status ${res.statusCode}`);
    }
    try {
      return generationEnvelope.parse(await res.body.json()).data;
    } catch (error) {
      throw new BillingUnavailable(error instanceof z.ZodError ? 'unexpected answer' : 'broken answer');
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }
}
