import type { ChatCompletionChunk, ChatCompletionResponse, NormalizedUsage } from '../canonical';
import type { TokenCounter } from './token-counter';

/**
 * What an answer generated, kept in memory only so that it can be counted when the upstream reports
 * no usage (a cut stream, a provider without usage). Never logged, never stored.
 */
export class GeneratedText {
  private readonly pieces: string[] = [];

  constructor(private readonly counter: TokenCounter) {}

  addChunk(chunk: ChatCompletionChunk): void {
    for (const choice of chunk.choices) {
      const delta = choice.delta;
      if (typeof delta.content === 'string') this.pieces.push(delta.content);
      if (typeof delta.reasoning_content === 'string') this.pieces.push(delta.reasoning_content);
      for (const call of delta.tool_calls ?? []) {
        if (call.function?.name !== undefined) this.pieces.push(call.function.name);
        if (call.function?.arguments !== undefined) this.pieces.push(call.function.arguments);
      }
    }
  }

  addResponse(response: ChatCompletionResponse): void {
    for (const choice of response.choices) {
      const message = choice.message;
      if (typeof message.content === 'string') this.pieces.push(message.content);
      if (typeof message.reasoning_content === 'string') this.pieces.push(message.reasoning_content);
      for (const call of message.tool_calls ?? [])
        this.pieces.push(call.function.name, call.function.arguments);
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
    return this.pieces.length === 0 ? 0 : this.counter.countTextTokens(this.pieces.join(''));
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
