import { STATUS_CODES } from 'node:http';
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
/** An upstream's own words in a failed test's message, at most this long. */
const UPSTREAM_MESSAGE_LIMIT = 300;

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
        return result(false, failedTestMessage(response.statusCode, failure.message));
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

/**
 * A failed test told with the upstream's status first: a dead key (401) and an upstream outage (500)
 * read apart even when the upstream's words are the same. In English, as relay's other messages.
 */
export function failedTestMessage(status: number, upstreamMessage: string | undefined): string {
  const statusText = STATUS_CODES[status];
  const head = statusText === undefined ? `HTTP ${status}` : `HTTP ${status} ${statusText}`;
  if (upstreamMessage === undefined || upstreamMessage.trim() === '') return head;
  const words = upstreamMessage.trim();
  return `${head}: ${words.length > UPSTREAM_MESSAGE_LIMIT ? `${words.slice(0, UPSTREAM_MESSAGE_LIMIT)}…` : words}`;
}
