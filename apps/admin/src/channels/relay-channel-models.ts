import { Injectable } from '@nestjs/common';
import {
  CHANNEL_MODELS_CALL,
  channelModelsResult,
  servicePath,
  type ChannelModelsRequest,
  type ChannelModelsResult,
} from '@tollgate/contracts';
import { InjectServiceConfig, SERVICE_TOKEN_HEADER, ServiceTokenSigner } from '@tollgate/platform';
import type { AdminConfig } from '../config';
import { RelayUnavailableError } from './relay-channel-tester';

/** Asks relay (CHANNEL_MODELS_CALL) for the models a channel's upstream lists: admin never opens keys. */
@Injectable()
export class RelayChannelModels {
  private readonly signer: ServiceTokenSigner;
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(@InjectServiceConfig() config: AdminConfig) {
    this.signer = new ServiceTokenSigner(config.TOLLGATE_INTERNAL_TOKEN_SECRET, CHANNEL_MODELS_CALL.audience);
    this.url = new URL(servicePath(CHANNEL_MODELS_CALL), config.RELAY_URL).toString();
    this.timeoutMs = config.CHANNEL_TEST_TIMEOUT_SECONDS * 1000;
  }

  /** Throws RelayUnavailableError when relay cannot be asked or answers something else. */
  async list(request: ChannelModelsRequest): Promise<ChannelModelsResult> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: CHANNEL_MODELS_CALL.method,
        headers: { 'content-type': 'application/json', [SERVICE_TOKEN_HEADER]: await this.signer.token() },
        body: JSON.stringify(request),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new RelayUnavailableError(error instanceof Error ? error.message : String(error));
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new RelayUnavailableError(`it answered HTTP ${response.status}`);
    }
    const parsed = channelModelsResult.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new RelayUnavailableError('its answer was not a model list');
    return parsed.data;
  }
}
