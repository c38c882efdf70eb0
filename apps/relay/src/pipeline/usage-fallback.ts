import type { ChatCompletionChunk, ChatCompletionResponse, NormalizedUsage } from '../canonical';
import type { TokenCounter } from './token-counter';

/** Pieces kept apart before they are joined onto the text so far. */
const PIECES_PER_JOIN = 64;

/**
 * What an answer generated, kept in memory only so that it can be counted when the upstream reports
 * no usage (a cut stream, a provider without usage). Never logged, never stored.
 *
 * A stream's chunks each carry a token or two: kept as one string per chunk, a held stream grew by a
 * string and an array slot (about 40 bytes) per chunk for a few bytes of text, so the pieces are
 * joined every PIECES_PER_JOIN onto the text so far.
 */
export class GeneratedText {
  private text = '';
  private pieces: string[] = [];

  constructor(private readonly counter: TokenCounter) {}

  private add(piece: string): void {
    this.pieces.push(piece);
    if (this.pieces.length < PIECES_PER_JOIN) return;
    this.text += this.pieces.join('');
    this.pieces = [];
  }

  addChunk(chunk: ChatCompletionChunk): void {
    for (const choice of chunk.choices) {
      const delta = choice.delta;
      if (typeof delta.content === 'string') this.add(delta.content);
      if (typeof delta.reasoning_content === 'string') this.add(delta.reasoning_content);
      for (const call of delta.tool_calls ?? []) {
        if (call.function?.name !== undefined) this.add(call.function.name);
        if (call.function?.arguments !== undefined) this.add(call.function.arguments);
      }
    }
  }

  addResponse(response: ChatCompletionResponse): void {
    for (const choice of response.choices) {
      const message = choice.message;
      if (typeof message.content === 'string') this.add(message.content);
      if (typeof message.reasoning_content === 'string') this.add(message.reasoning_content);
      for (const call of message.tool_calls ?? []) {
        this.add(call.function.name);
        this.add(call.function.arguments);
      }
    }
  }

  /** Whether a chunk carries anything the client sees as the answer starting. */
  static hasOutput(chunk: ChatCompletionChunk): boolean {
    return chunk.choices.some(
      (choice) =>
        (typeof choice.delta.content === 'string' && choice.delta.content !== '') ||
        (typeof choice.delta.reasoning_content === 'string' && choice.delta.reasoning_content !== '') ||
        (choice.delta.tool_calls?.length ?? 0) > 0,
    );
  }

  tokens(): number {
    const text = this.text + this.pieces.join('');
    return text === '' ? 0 : this.counter.countTextTokens(text);
  }
}

/**
 * The upstream's usage when it reported one, else the prompt and the answer so far as counted locally
 * (only then is anything tokenised).
 */
export function usageOrCounted(
  reported: NormalizedUsage | undefined,
  promptTokens: () => number,
  generated: GeneratedText,
): NormalizedUsage {
  return (
    reported ?? { prompt_tokens: promptTokens(), completion_tokens: generated.tokens(), cached_tokens: 0 }
  );
}
