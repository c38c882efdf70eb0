import {
  ChunkBuilder,
  type ChatCompletionChunk,
  toOpenAiUsage,
  MalformedUpstreamResponseError,
  type NormalizedUsage,
} from '../../canonical';
import type { ResponseContext, ChatStreamTransformer } from '../provider-adapter';
import { UpstreamStreamError } from '../provider-errors';
import type { SseEvent } from '../../sse/sse';
import { convertParts } from './chat-response';
import { finishReasonFromGemini } from './finish-reason';
import type { GeminiGenerateContentResponse, GeminiUsageMetadata } from './types';
import { normalizeGeminiUsage } from './usage';

/**
 * `:streamGenerateContent?alt=sse` events → OpenAI chunks. Each event is a whole
 * GenerateContentResponse with the next parts; function calls arrive whole, so each becomes one
 * tool-call delta with id, name and all arguments. Usage (repeated, cumulative, on every event) is
 * sent once, as the usage chunk when the stream ends.
 */
export class GeminiChatStream implements ChatStreamTransformer {
  private readonly chunks: ChunkBuilder;
  private started = false;
  private toolCallCount = 0;
  private usageMetadata: GeminiUsageMetadata | undefined;

  constructor(context: ResponseContext) {
    this.chunks = new ChunkBuilder(context.created);
    this.chunks.model = context.model;
  }

  push(event: SseEvent): ChatCompletionChunk[] {
    const response = parseEvent(event.data);
    const output: ChatCompletionChunk[] = [];
    if (!this.started) {
      this.started = true;
      this.chunks.id = response.responseId ?? '';
      if (response.modelVersion !== undefined) this.chunks.model = response.modelVersion;
      output.push(this.chunks.choice({ role: 'assistant', content: '' }));
    }
    if (response.usageMetadata !== undefined) this.usageMetadata = response.usageMetadata;
    const candidate = response.candidates?.[0];
    const converted = convertParts(candidate?.content?.parts ?? [], response.responseId, this.toolCallCount);
    if (converted.reasoning !== '')
      output.push(this.chunks.choice({ reasoning_content: converted.reasoning }));
    if (converted.text !== '') output.push(this.chunks.choice({ content: converted.text }));
    if (converted.toolCalls.length > 0) {
      const deltas = converted.toolCalls.map((call, offset) => ({
        index: this.toolCallCount + offset,
        ...call,
      }));
      this.toolCallCount += converted.toolCalls.length;
      output.push(this.chunks.choice({ tool_calls: deltas }));
    }
    const finishReason =
      candidate === undefined && response.promptFeedback?.blockReason !== undefined
        ? 'content_filter'
        : finishReasonFromGemini(candidate?.finishReason, this.toolCallCount > 0);
    if (finishReason !== null) output.push(this.chunks.choice({}, finishReason));
    return output;
  }

  end(): ChatCompletionChunk[] {
    return this.usageMetadata === undefined
      ? []
      : [this.chunks.usage(toOpenAiUsage(normalizeGeminiUsage(this.usageMetadata)))];
  }

  usage(): NormalizedUsage | undefined {
    return this.usageMetadata === undefined ? undefined : normalizeGeminiUsage(this.usageMetadata);
  }
}

function parseEvent(data: string): GeminiGenerateContentResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new MalformedUpstreamResponseError('Gemini stream event is not JSON');
  }
  const error = (parsed as { error?: { status?: string; message?: string } }).error;
  if (error !== undefined)
    throw new UpstreamStreamError(error.status ?? 'error', error.message ?? 'upstream stream error');
  return parsed as GeminiGenerateContentResponse;
}
