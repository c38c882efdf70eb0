import { Injectable } from '@nestjs/common';
import {
  CHANNEL_TEST_CALL,
  channelTestResult,
  ErrorCode,
  type ChannelTestRequest,
  type ChannelTestResult,
} from '@tollgate/contracts';
import { answerData, AppException, InjectServiceConfig, ServiceCaller } from '@tollgate/platform';
import type { AdminConfig } from '../config';

/** Relay could not be asked: unreachable, or it answered something other than a test result (502). */
export class RelayUnavailableError extends AppException {
  constructor(readonly reason: string) {
    super(ErrorCode.UpstreamServiceDown, 'Relay is unavailable; the channel was not tested');
    this.name = 'RelayUnavailableError';
  }
}

/**
 * Asks relay (CHANNEL_TEST_CALL) to send one small real request through a channel. A test that
 * outlasts CHANNEL_TEST_TIMEOUT_SECONDS is a failed test, not a relay failure.
 */
@Injectable()
export class RelayChannelTester {
  private readonly relay: ServiceCaller;
  private readonly timeoutMs: number;

  constructor(@InjectServiceConfig() config: AdminConfig) {
    this.relay = new ServiceCaller(config.RELAY_URL, config.TOLLGATE_INTERNAL_TOKEN_SECRET);
    this.timeoutMs = config.CHANNEL_TEST_TIMEOUT_SECONDS * 1000;
  }

  /** Throws RelayUnavailableError when relay cannot be asked; `signal` cancels (shutdown). */
  async test(request: ChannelTestRequest, signal?: AbortSignal): Promise<ChannelTestResult> {
    const started = Date.now();
    let answer;
    try {
      answer = await this.relay.send(CHANNEL_TEST_CALL, { body: request, timeoutMs: this.timeoutMs, signal });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') return this.timedOut(request, started);
      throw new RelayUnavailableError(error instanceof Error ? error.message : String(error));
    }
    if (answer.status !== 200) throw new RelayUnavailableError(`it answered HTTP ${answer.status}`);
    // Relay answers the result itself; an envelope around it is read too.
    const result = answerData(channelTestResult, answer.body);
    if (!result) throw new RelayUnavailableError('its answer was not a channel test result');
    return result;
  }

  private timedOut(request: ChannelTestRequest, started: number): ChannelTestResult {
    return {
      success: false,
      time_ms: Date.now() - started,
      model: request.model ?? request.channel.test_model,
      message: `The test did not finish within ${this.timeoutMs / 1000} s`,
    };
  }
}
