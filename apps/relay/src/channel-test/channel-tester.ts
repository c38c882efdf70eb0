import type { CatalogChannel, ChannelTestRequest, ChannelTestResult } from '@tollgate/contracts';
import { adapterForChannelType, channelTarget } from '../providers';
import type { ChatCompletionRequest } from '../canonical';
import { upstreamHttpFailure } from '../routing';
import { deadline } from '../upstream/call-abort';
import type { ChannelKeys } from '../upstream/channel-keys';
import { readLimited, type UpstreamClient } from '../upstream/upstream-client';

const TEST_PROMPT = 'Say hi.';
const TEST_MAX_TOKENS = 16;
const TEST_TIMEOUT_MS = 30_000;
const ERROR_BODY_LIMIT = 16 * 1024;

/** The model a test asks for: the one given, else the channel's test model, else its first model. */
export function testModelOf(channel: CatalogChannel, requested: string | undefined): string {
  return requested ?? (channel.test_model !== '' ? channel.test_model : (channel.models[0] ?? ''));
}

/**
 * One small real chat request straight through a channel (no routing, no billing), for admin's
 * "test channel" button and its periodic re-enable check. The answer's content is discarded.
 */
export class ChannelTester {
  constructor(
    private readonly upstream: UpstreamClient,
    private readonly keys: ChannelKeys,
    private readonly now: () => number = () => performance.now(),
  ) {}

  async test({ channel, model: requested }: ChannelTestRequest): Promise<ChannelTestResult> {
    const model = testModelOf(channel, requested);
    const startedAt = this.now();
    const result = (success: boolean, message: string): ChannelTestResult => ({
      success,
      time_ms: Math.max(0, Math.round(this.now() - startedAt)),
      model,
      message,
    });
    if (model === '') return result(false, 'The channel names no model to test');
    const timeout = deadline(TEST_TIMEOUT_MS);
    try {
      const adapter = adapterForChannelType(channel.type);
      const request: ChatCompletionRequest = {
        model,
        messages: [{ role: 'user', content: TEST_PROMPT }],
        max_tokens: TEST_MAX_TOKENS,
      };
      const upstream = adapter.buildChatRequest(
        request,
        channelTarget(channel, this.keys.keyOf(channel), channel.model_mapping[model] ?? model),
      );
      const response = await this.upstream.send(upstream, timeout);
      if (response.statusCode < 200 || response.statusCode >= 300) {
        const failure = upstreamHttpFailure(
          response.statusCode,
          await readLimited(response.body, ERROR_BODY_LIMIT),
        );
        return result(false, failure.message ?? `The upstream answered ${response.statusCode}`);
      }
      adapter.parseChatResponse(await response.body.json(), { created: 0, model });
      return result(true, 'ok');
    } catch (error) {
      if (timeout.aborted)
        return result(false, `The upstream did not answer within ${TEST_TIMEOUT_MS / 1000} s`);
      return result(false, (error as Error).message);
    } finally {
      timeout.cancel();
    }
  }
}
