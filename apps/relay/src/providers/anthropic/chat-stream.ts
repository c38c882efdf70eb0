import {
  ChunkBuilder,
  type ChatCompletionChunk,
  type FinishReason,
  toOpenAiUsage,
  MalformedUpstreamResponseError,
  type NormalizedUsage,
  withAnthropicFields,
} from '../../canonical';
import type { ResponseContext, ChatStreamTransformer } from '../provider-adapter';
import { UpstreamStreamError } from '../provider-errors';
import type { SseEvent } from '../../sse/sse';
import { finishReasonFromAnthropic } from './stop-reason';
import type { AnthropicStreamEvent, AnthropicUsage } from './types';
import { normalizeAnthropicUsage } from './usage';

/**
 * Anthropic's event sequence → OpenAI chunks: message_start gives the role chunk (with the prompt's
 * usage for an Anthropic client), text and
 * tool_use blocks give content and tool-call deltas (tool calls numbered in order of appearance),
 * message_delta gives the finish reason, message_stop the usage chunk.
 */
export class AnthropicChatStream implements ChatStreamTransformer {
  private readonly chunks: ChunkBuilder;
  /** Anthropic block index → OpenAI tool call index. */
  private readonly toolIndexByBlock = new Map<number, number>();
  private usageSoFar: Partial<AnthropicUsage> | undefined;
  private finishReason: FinishReason | null = null;

  constructor(context: ResponseContext) {
    this.chunks = new ChunkBuilder(context.created);
  }

  push(event: SseEvent): ChatCompletionChunk[] {
    const data = parseEvent(event.data);
    switch (data.type) {
      case 'message_start':
        this.chunks.id = data.message.id;
        this.chunks.model = data.message.model;
        this.usageSoFar = { ...data.message.usage };
        // An Anthropic client is told the prompt's tokens in its own message_start, as Anthropic told them.
        return [
          this.chunks.choice(
            withAnthropicFields(
              { role: 'assistant', content: '' },
              { start_usage: normalizeAnthropicUsage(this.usageSoFar) },
            ),
          ),
        ];
      case 'content_block_start':
        return this.blockStart(data);
      case 'content_block_delta':
        return this.blockDelta(data);
      case 'message_delta':
        // message_delta's usage is cumulative; fields it leaves out keep message_start's values.
        this.usageSoFar = { ...this.usageSoFar, ...definedFields(data.usage) };
        this.finishReason = finishReasonFromAnthropic(data.delta.stop_reason) ?? 'stop';
        return [this.chunks.choice({}, this.finishReason)];
      case 'message_stop':
        return [this.chunks.usage(toOpenAiUsage(normalizeAnthropicUsage(this.usageSoFar)))];
      case 'error':
        throw new UpstreamStreamError(data.error.type, data.error.message);
      default:
        // ping, content_block_stop and event types added later carry nothing to convert.
        return [];
    }
  }

  end(): ChatCompletionChunk[] {
    return [];
  }

  usage(): NormalizedUsage | undefined {
    return this.usageSoFar === undefined ? undefined : normalizeAnthropicUsage(this.usageSoFar);
  }

  private blockStart(
    data: Extract<AnthropicStreamEvent, { type: 'content_block_start' }>,
  ): ChatCompletionChunk[] {
    const block = data.content_block;
    if (block.type === 'tool_use') {
      const index = this.toolIndexByBlock.size;
      this.toolIndexByBlock.set(data.index, index);
      return [
        this.chunks.choice({
          tool_calls: [
            { index, id: block.id, type: 'function', function: { name: block.name, arguments: '' } },
          ],
        }),
      ];
    }
    if (block.type === 'text' && block.text !== '') return [this.chunks.choice({ content: block.text })];
    // An OpenAI client reads nothing here; an Anthropic client gets the block to send back next turn.
    if (block.type === 'redacted_thinking')
      return [this.chunks.choice(withAnthropicFields({}, { redacted_thinking: block.data }))];
    return [];
  }

  private blockDelta(
    data: Extract<AnthropicStreamEvent, { type: 'content_block_delta' }>,
  ): ChatCompletionChunk[] {
    const delta = data.delta;
    switch (delta.type) {
      case 'text_delta':
        return [this.chunks.choice({ content: delta.text })];
      case 'thinking_delta':
        return [this.chunks.choice({ reasoning_content: delta.thinking })];
      case 'input_json_delta': {
        const index = this.toolIndexByBlock.get(data.index);
        if (index === undefined)
          throw new MalformedUpstreamResponseError('input_json_delta outside a tool_use block');
        return [this.chunks.choice({ tool_calls: [{ index, function: { arguments: delta.partial_json } }] })];
      }
      case 'signature_delta':
        return [this.chunks.choice(withAnthropicFields({}, { signature: delta.signature }))];
      default:
        return [];
    }
  }
}

function parseEvent(data: string): AnthropicStreamEvent {
  try {
    return JSON.parse(data) as AnthropicStreamEvent;
  } catch {
    throw new MalformedUpstreamResponseError('Anthropic stream event is not JSON');
  }
}

function definedFields(usage: Partial<AnthropicUsage>): Partial<AnthropicUsage> {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== null && value !== undefined),
  );
}
