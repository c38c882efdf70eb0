import { Injectable } from '@nestjs/common';
import {
  CHANNEL_TEST_CALL,
  channelTestResult,
  ErrorCode,
  servicePath,
  type ChannelTestRequest,
  type ChannelTestResult,
} from '@tollgate/contracts';
import {
  AppException,
  InjectServiceConfig,
  SERVICE_TOKEN_HEADER,
  ServiceTokenSigner,
} from '@tollgate/platform';
import type { AdminConfig } from '../config';

/** Relay could not be asked: unreachable, or it answered something other than a test result (502). */
export class RelayUnavailableError extends AppException {
  constructor(readonly reason: string) {
    super(ErrorCode.UpstreamServiceDown, 'Relay is unavailable; the channel was not tested');
    this.name = 'RelayUnavailableError';
  }
}

/** Relay answers the result itself; an envelope around it is read too. */
const parseAnswer = (body: unknown): ChannelTestResult | undefined => {
  const bare = channelTestResult.safeParse(body);
  if (bare.success) return bare.data;
  const enveloped = channelTestResult.safeParse((body as { data?: unknown } | null)?.data);
  return enveloped.success ? enveloped.data : undefined;
};

/**
 * Asks relay (CHANNEL_TEST_CALL) to send one small real request through a channel. A test that
 * outlasts CHANNEL_TEST_TIMEOUT_SECONDS is a failed test, not a relay failure.
 */
@Injectable()
export class RelayChannelTester {
  private readonly signer: ServiceTokenSigner;
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(@InjectServiceConfig() config: AdminConfig) {
    this.signer = new ServiceTokenSigner(config.TOLLGATE_INTERNAL_TOKEN_SECRET, CHANNEL_TEST_CALL.audience);
    this.url = new URL(servicePath(CHANNEL_TEST_CALL), config.RELAY_URL).toString();
    this.timeoutMs = config.CHANNEL_TEST_TIMEOUT_SECONDS * 1000;
  }

  /** Throws RelayUnavailableError when relay cannot be asked; `signal` cancels (shutdown). */
  async test(request: ChannelTestRequest, signal?: AbortSignal): Promise<ChannelTestResult> {
    const started = Date.now();
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: CHANNEL_TEST_CALL.method,
        headers: {
          'content-type': 'application/json',
          [SERVICE_TOKEN_HEADER]: await this.signer.token(),
        },
        body: JSON.stringify(request),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (timeout.aborted && !signal?.aborted) return this.timedOut(request, started);
      throw new RelayUnavailableError(error instanceof Error ? error.message : String(error));
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new RelayUnavailableError(`it answered HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      if (timeout.aborted && !signal?.aborted) return this.timedOut(request, started);
      throw new RelayUnavailableError('its answer was not JSON');
    }
    const result = parseAnswer(body);
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
