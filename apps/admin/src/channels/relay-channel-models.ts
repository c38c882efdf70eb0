import { Injectable } from '@nestjs/common';
import {
  CHANNEL_MODELS_CALL,
  channelModelsResult,
  type ChannelModelsRequest,
  type ChannelModelsResult,
} from '@tollgate/contracts';
import { answerData, InjectServiceConfig, ServiceCaller } from '@tollgate/platform';
import type { AdminConfig } from '../config';
import { RelayUnavailableError } from './relay-channel-tester';

/** Asks relay (CHANNEL_MODELS_CALL) for the models a channel's upstream lists: admin never opens keys. */
@Injectable()
export class RelayChannelModels {
  private readonly relay: ServiceCaller;
  private readonly timeoutMs: number;

  constructor(@InjectServiceConfig() config: AdminConfig) {
    this.relay = new ServiceCaller(config.RELAY_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET);
    this.timeoutMs = config.CHANNEL_TEST_TIMEOUT_SECONDS * 1000;
  }

  /** Throws RelayUnavailableError when relay cannot be asked or answers something else. */
  async list(request: ChannelModelsRequest): Promise<ChannelModelsResult> {
    let answer;
    try {
      answer = await this.relay.send(CHANNEL_MODELS_CALL, { body: request, timeoutMs: this.timeoutMs });
    } catch (error) {
      throw new RelayUnavailableError(error instanceof Error ? error.message : String(error));
    }
    if (answer.status !== 200) throw new RelayUnavailableError(`it answered HTTP ${answer.status}`);
    const result = answerData(channelModelsResult, answer.body);
    if (!result) throw new RelayUnavailableError('its answer was not a model list');
    return result;
  }
}
