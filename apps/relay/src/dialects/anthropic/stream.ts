import {
  anthropicFieldsOf,
  type AnthropicFields,
  type ChatCompletionChunk,
  type FinishReason,
  normalizeOpenAiUsage,
  type NormalizedUsage,
} from '../../canonical';
import type { SseEvent } from '../../sse/sse';
import { stopReasonFromFinish } from './stop-reason';
import { toAnthropicUsage } from './usage';

/** A thinking block is 'signed' once its signature came: more thinking opens a new block. */
type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking' }
  | { kind: 'signed' }
  | { kind: 'redacted' }
  | { kind: 'tool'; toolIndex: number };

/** A thinking block opens empty; its text comes in thinking_delta, its signature in signature_delta. */
const EMPTY_THINKING = { type: 'thinking', thinking: '', signature: '' };

function sse(type: string, payload: object): SseEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

/**
 * Canonical chunks → Anthropic's event sequence for `/v1/messages` clients: message_start, then one
 * content block per run of text or per tool call (tool arguments as input_json_delta), then
 * message_delta with the stop reason and usage, and message_stop. message_start tells the prompt's
 * tokens when an Anthropic upstream told them in its own; the usage arrives last on OpenAI-style
 * streams, so their message_start carries zero input tokens and message_delta the real counts.
 */
export class AnthropicClientStream {
  private started = false;
  private blockIndex = -1;
  private open: OpenBlock | undefined;
  private finishReason: FinishReason | null = null;
  private usage: NormalizedUsage = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0 };

  constructor(private readonly requestedModel: string) {}

  push(chunk: ChatCompletionChunk): SseEvent[] {
    const events: SseEvent[] = [];
    if (!this.started) {
      this.started = true;
      // An Anthropic upstream told the prompt's tokens in its message_start; an OpenAI-style one tells
      // them only at the end (in message_delta then).
      const startUsage = anthropicFieldsOf(chunk.choices[0]?.delta)?.start_usage;
      if (startUsage !== undefined) this.usage = startUsage;
      events.push(
        sse('message_start', {
          message: {
            id: chunk.id,
            type: 'message',
            role: 'assistant',
            model: this.requestedModel,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: toAnthropicUsage(this.usage),
          },
        }),
      );
    }
    const usage = normalizeOpenAiUsage(chunk.usage);
    if (usage !== undefined) this.usage = usage;
    const choice = chunk.choices[0];
    if (choice === undefined) return events;
    const delta = choice.delta;
    if (delta.reasoning_content !== undefined && delta.reasoning_content !== '') {
      events.push(...this.ensureOpen({ kind: 'thinking' }, EMPTY_THINKING));
      events.push(this.delta({ type: 'thinking_delta', thinking: delta.reasoning_content }));
    }
    const anthropic = anthropicFieldsOf(delta);
    if (anthropic !== undefined) events.push(...this.thinkingFromAnthropic(anthropic));
    if (typeof delta.content === 'string' && delta.content !== '') {
      events.push(...this.ensureOpen({ kind: 'text' }, { type: 'text', text: '' }));
      events.push(this.delta({ type: 'text_delta', text: delta.content }));
    }
    for (const call of delta.tool_calls ?? []) {
      const sameCall = this.open?.kind === 'tool' && this.open.toolIndex === call.index;
      if (!sameCall) {
        events.push(...this.close());
        this.blockIndex += 1;
        this.open = { kind: 'tool', toolIndex: call.index };
        events.push(
          sse('content_block_start', {
            index: this.blockIndex,
            content_block: {
              type: 'tool_use',
              id: call.id ?? '',
              name: call.function?.name ?? '',
              input: {},
            },
          }),
        );
      }
      const argumentsPiece = call.function?.arguments ?? '';
      if (argumentsPiece !== '')
        events.push(this.delta({ type: 'input_json_delta', partial_json: argumentsPiece }));
    }
    if (choice.finish_reason !== null) this.finishReason = choice.finish_reason;
    return events;
  }

  /** Ends the answer once the canonical stream is over (after its usage chunk). */
  end(): SseEvent[] {
    return [
      ...this.close(),
      sse('message_delta', {
        delta: { stop_reason: stopReasonFromFinish(this.finishReason), stop_sequence: null },
        usage: toAnthropicUsage(this.usage),
      }),
      sse('message_stop', {}),
    ];
  }

  /** An Anthropic upstream's signature for the open thinking block, or a redacted_thinking block. */
  private thinkingFromAnthropic(fields: AnthropicFields): SseEvent[] {
    const events: SseEvent[] = [];
    if (fields.signature !== undefined) {
      events.push(...this.ensureOpen({ kind: 'thinking' }, EMPTY_THINKING));
      events.push(this.delta({ type: 'signature_delta', signature: fields.signature }));
      this.open = { kind: 'signed' };
    }
    if (fields.redacted_thinking !== undefined) {
      events.push(
        ...this.close(),
        ...this.ensureOpen(
          { kind: 'redacted' },
          { type: 'redacted_thinking', data: fields.redacted_thinking },
        ),
      );
    }
    return events;
  }

  private ensureOpen(block: OpenBlock, contentBlock: object): SseEvent[] {
    if (this.open?.kind === block.kind) return [];
    const events = this.close();
    this.blockIndex += 1;
    this.open = block;
    events.push(sse('content_block_start', { index: this.blockIndex, content_block: contentBlock }));
    return events;
  }

  private delta(delta: object): SseEvent {
    return sse('content_block_delta', { index: this.blockIndex, delta });
  }

  private close(): SseEvent[] {
    if (this.open === undefined) return [];
    this.open = undefined;
    return [sse('content_block_stop', { index: this.blockIndex })];
  }
}
